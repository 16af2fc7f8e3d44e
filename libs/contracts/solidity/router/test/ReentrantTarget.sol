// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Call} from "../interfaces/IExecutor.sol";
import {IRouter, Order} from "../interfaces/IRouter.sol";

/// @notice Test-only malicious call target: when the executor calls it, it tries to re-enter the
/// router with a nested order (which would let it run calls while the outer order is half done).
contract ReentrantTarget {
    function attack(IRouter router, Order calldata nested) external {
        Call[] memory none = new Call[](0);
        router.execute(nested, none);
    }
}
