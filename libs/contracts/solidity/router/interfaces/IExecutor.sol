// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice A token amount a call spends from the executor's balance.
/// The amount is either fixed (`bps == 0`: `amount`) or a share of the executor's balance at the
/// moment of the call (`bps` of 10_000), so split and multi-hop routes stay exact when earlier hops
/// return more or less than quoted.
/// `token == address(0)` is the executor's native balance: the amount is added to the call's `value`
/// (how a route wraps native input: WETH `deposit()` with all of it); it cannot be approved.
struct CallInput {
    address token;
    /// share of the executor's current balance of `token` in basis points (1..10_000); 0 = use `amount`
    uint16 bps;
    /// fixed amount, used only when `bps == 0`
    uint256 amount;
    /// byte offset in `Call.data` where the amount is written as a 32-byte word; type(uint32).max = not written
    uint32 offset;
    /// approve `Call.target` for the amount before the call; the approval is reset to 0 right after it
    bool approve;
}

/// @notice One step of a route: the executor calls `target` with `data` and `value` wei (plus the
/// amounts of its native inputs).
struct Call {
    address target;
    uint256 value;
    bytes data;
    CallInput[] inputs;
}

interface IExecutor {
    error OnlyRouter();
    error CallFailed(uint256 index, bytes reason);
    error InvalidInput(uint256 index);
    error NativeTransferFailed();

    /// @notice Runs `calls` in order, then sends everything it holds of `outputToken` to `recipient`
    /// (address(0) = native: its native balance; WETH is not unwrapped here, the calls do that).
    function run(Call[] calldata calls, address outputToken, address recipient) external;
}
