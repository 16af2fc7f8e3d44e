// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @notice Test-only malicious call target: when the executor calls it, it tries to spend a
/// victim's approval of the router, as the executor's caller would if approvals leaked to it.
contract ApprovalThief {
    function steal(IERC20 token, address victim, uint256 amount) external {
        // msg.sender is the executor, but transferFrom checks this contract's allowance.
        token.transferFrom(victim, address(this), amount);
    }
}
