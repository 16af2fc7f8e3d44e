// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Call, CallInput, IExecutor} from "./interfaces/IExecutor.sol";

/// @notice Runs a route's calls for the Router. Users never approve this contract: the Router pulls
/// the input and transfers it here, so an arbitrary call made from here can only move what this
/// order brought in. Any approval it grants a call target lasts for that one call.
/// @dev It knows no chain-specific address (no WETH): native input arrives here as native, and the
/// route wraps it itself (a call to the chain's WETH `deposit()` whose value is a CallInput of
/// token address(0): the executor's native balance); a native output is its native balance after
/// the calls (the route ends with WETH `withdraw`). So the Router and its Executor have the same
/// init code, hence the same CREATE2 address, on every chain.
contract Executor is IExecutor {
    using SafeERC20 for IERC20;

    uint32 public constant NO_OFFSET = type(uint32).max;
    uint16 private constant BPS = 10_000;

    address public constant NATIVE = address(0);

    address public immutable router;

    constructor() {
        router = msg.sender;
    }

    /// @dev The Router's native input, WETH.withdraw and protocols paying out native land here.
    receive() external payable {}

    function run(Call[] calldata calls, address outputToken, address recipient) external {
        if (msg.sender != router) revert OnlyRouter();
        for (uint256 i = 0; i < calls.length; ++i) {
            _call(i, calls[i]);
        }
        _sweep(outputToken, recipient);
    }

    function _call(uint256 index, Call calldata c) private {
        bytes memory data = c.data;
        CallInput[] calldata inputs = c.inputs;
        uint256 value = c.value;
        for (uint256 j = 0; j < inputs.length; ++j) {
            value += _prepareInput(index, c.target, data, inputs[j]);
        }
        (bool ok, bytes memory reason) = c.target.call{value: value}(data);
        if (!ok) revert CallFailed(index, reason);
        for (uint256 j = 0; j < inputs.length; ++j) {
            if (inputs[j].approve) IERC20(inputs[j].token).forceApprove(c.target, 0);
        }
    }

    /// @dev Returns the native value the input adds to the call: its amount when `input.token` is
    /// address(0) (a share of the executor's native balance, e.g. all of it for WETH `deposit()`),
    /// else 0. Native cannot be approved.
    function _prepareInput(uint256 index, address target, bytes memory data, CallInput calldata input) private returns (uint256 value) {
        if (input.bps > BPS) revert InvalidInput(index);
        bool native = input.token == NATIVE;
        if (native && input.approve) revert InvalidInput(index);
        uint256 amount = input.bps == 0 ? input.amount : (_balance(input.token) * input.bps) / BPS;
        uint256 offset = input.offset;
        if (offset != NO_OFFSET) {
            if (offset + 32 > data.length) revert InvalidInput(index);
            assembly ("memory-safe") {
                mstore(add(add(data, 32), offset), amount)
            }
        }
        if (input.approve) IERC20(input.token).forceApprove(target, amount);
        return native ? amount : 0;
    }

    function _balance(address token) private view returns (uint256) {
        return token == NATIVE ? address(this).balance : IERC20(token).balanceOf(address(this));
    }

    /// @dev A native output is the native the executor holds: the route unwraps WETH itself.
    function _sweep(address token, address recipient) private {
        if (token == NATIVE) {
            uint256 balance = address(this).balance;
            if (balance > 0) {
                (bool ok,) = recipient.call{value: balance}("");
                if (!ok) revert NativeTransferFailed();
            }
        } else {
            uint256 balance = IERC20(token).balanceOf(address(this));
            if (balance > 0) IERC20(token).safeTransfer(recipient, balance);
        }
    }
}
