// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {Fill, IBridgeSettler} from "./interfaces/IBridge.sol";

/// @notice Destination side of the devnet bridge. A filler pays a deposit's recipient from its own
/// inventory (approved to this contract, or `msg.value` for the native token); the first fill of
/// a request id per origin chain is recorded and emitted, and the attester reads it to repay the
/// filler on the origin. Holds no funds and has no owner.
contract BridgeSettler is IBridgeSettler, ReentrancyGuard {
    using SafeERC20 for IERC20;

    address public constant NATIVE = address(0);

    /// originChainId => requestId => filler (address(0) = not filled)
    mapping(uint256 => mapping(bytes32 => address)) public filledBy;

    /// @notice Delivers `f.outputAmount` of `f.outputToken` from the caller to `f.recipient`.
    /// The contract cannot check the fill against the origin deposit: the attester does, before it
    /// repays, so a fill with other terms than the deposit's is the filler's loss.
    function fill(Fill calldata f) external payable nonReentrant {
        if (block.timestamp > f.fillDeadline) revert FillExpired();
        if (f.outputAmount == 0) revert ZeroAmount();
        if (f.originChainId == block.chainid) revert SameChain();
        if (f.recipient == address(0) || f.recipient == address(this)) revert InvalidRecipient();
        address previous = filledBy[f.originChainId][f.requestId];
        if (previous != address(0)) revert AlreadyFilled(previous);
        filledBy[f.originChainId][f.requestId] = msg.sender;

        if (f.outputToken == NATIVE) {
            if (msg.value != f.outputAmount) revert BadNativeValue();
            (bool ok,) = f.recipient.call{value: f.outputAmount}("");
            if (!ok) revert NativeTransferFailed();
        } else {
            if (msg.value != 0) revert BadNativeValue();
            IERC20 token = IERC20(f.outputToken);
            uint256 before = token.balanceOf(f.recipient);
            token.safeTransferFrom(msg.sender, f.recipient, f.outputAmount);
            // `outputAmount` is what the recipient must receive, not what the filler sends.
            if (token.balanceOf(f.recipient) - before < f.outputAmount) revert UnsupportedToken();
        }
        emit Filled(f.originChainId, f.requestId, msg.sender, f.recipient, f.outputToken, f.outputAmount);
    }
}
