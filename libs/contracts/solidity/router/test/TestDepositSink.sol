// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @notice Test-only stand-in for a bridge's deposit entry point (as Across's SpokePool.deposit
/// pulls its input from the caller): it takes `amount` of `token` from the caller and records it.
/// Router.executeBridge's tests deposit into it; the real bridge is Across (libs/bridge).
contract TestDepositSink {
    using SafeERC20 for IERC20;

    event Deposited(address indexed depositor, address indexed token, uint256 amount, address recipient);

    function deposit(address token, uint256 amount, address recipient) external {
        IERC20(token).safeTransferFrom(msg.sender, address(this), amount);
        emit Deposited(msg.sender, token, amount, recipient);
    }
}
