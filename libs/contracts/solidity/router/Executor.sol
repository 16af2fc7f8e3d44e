// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Call, CallInput, IExecutor} from "./interfaces/IExecutor.sol";
import {IWETH} from "./interfaces/IWETH.sol";

/// @notice Runs a route's calls for the Router. Users never approve this contract: the Router pulls
/// the input and transfers it here, so an arbitrary call made from here can only move what this
/// order brought in. Any approval it grants a call target lasts for that one call.
contract Executor is IExecutor {
    using SafeERC20 for IERC20;

    uint32 public constant NO_OFFSET = type(uint32).max;
    uint16 private constant BPS = 10_000;

    address public immutable router;
    IWETH public immutable weth;

    constructor(IWETH weth_) {
        router = msg.sender;
        weth = weth_;
    }

    /// @dev WETH.withdraw and protocols paying out native land here.
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
        for (uint256 j = 0; j < inputs.length; ++j) {
            _prepareInput(index, c.target, data, inputs[j]);
        }
        (bool ok, bytes memory reason) = c.target.call{value: c.value}(data);
        if (!ok) revert CallFailed(index, reason);
        for (uint256 j = 0; j < inputs.length; ++j) {
            if (inputs[j].approve) IERC20(inputs[j].token).forceApprove(c.target, 0);
        }
    }

    function _prepareInput(uint256 index, address target, bytes memory data, CallInput calldata input) private {
        if (input.bps > BPS) revert InvalidInput(index);
        uint256 amount = input.bps == 0 ? input.amount : (IERC20(input.token).balanceOf(address(this)) * input.bps) / BPS;
        uint256 offset = input.offset;
        if (offset != NO_OFFSET) {
            if (offset + 32 > data.length) revert InvalidInput(index);
            assembly ("memory-safe") {
                mstore(add(add(data, 32), offset), amount)
            }
        }
        if (input.approve) IERC20(input.token).forceApprove(target, amount);
    }

    function _sweep(address token, address recipient) private {
        if (token == address(0)) {
            uint256 wrapped = weth.balanceOf(address(this));
            if (wrapped > 0) weth.withdraw(wrapped);
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
