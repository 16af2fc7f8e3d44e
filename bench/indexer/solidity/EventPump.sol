// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IBenchToken {
    function transfer(address to, uint256 amount) external returns (bool);
    function approve(address spender, uint256 amount) external returns (bool);
}

interface IBenchPair {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function getReserves() external view returns (uint112, uint112, uint32);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

interface IBenchVault {
    function asset() external view returns (address);
    function deposit(uint256 assets, address receiver) external returns (uint256);
    function withdraw(uint256 assets, address receiver, address owner) external returns (uint256);
}

/// @notice Benchmark load generator: one call performs many REAL protocol actions with the pump's
/// own inventory, so one transaction emits hundreds of the events an indexer decodes:
/// ERC-20 Transfers of registered tokens (1 event each), Uniswap V2 swaps through the pair
/// (Transfer in, Transfer out, Sync, Swap: 4 events) and ERC-4626 deposits / withdrawals
/// (asset Transfer, share mint/burn Transfer, Deposit/Withdraw: 3 events).
contract EventPump {
    address public immutable owner;
    address[] public tokens;
    address[] public pairs;
    address[] public vaults;
    /// @dev recipients cycle through this many synthetic holder addresses
    uint256 public immutable holders;

    constructor(address[] memory tokens_, address[] memory pairs_, address[] memory vaults_, uint256 holders_) {
        owner = msg.sender;
        tokens = tokens_;
        pairs = pairs_;
        vaults = vaults_;
        holders = holders_;
        for (uint256 i = 0; i < vaults_.length; i++) {
            IBenchToken(IBenchVault(vaults_[i]).asset()).approve(vaults_[i], type(uint256).max);
        }
    }

    function holder(uint256 k) internal view returns (address) {
        return address(uint160(0x00B0B0000000000000000000000000000000000000) + uint160(k % holders));
    }

    /// @param nTransfers plain transfers, @param nSwaps V2 swaps, @param nFlows vault flows (deposit, withdraw alternating)
    function pump(uint256 nTransfers, uint256 nSwaps, uint256 nFlows, uint256 salt) external {
        require(msg.sender == owner, "EventPump: not owner");
        uint256 nt = tokens.length;
        for (uint256 i = 0; i < nTransfers; i++) {
            uint256 k = salt * 7919 + i;
            IBenchToken(tokens[k % nt]).transfer(holder(k), 1000 + (k % 997));
        }
        uint256 np = pairs.length;
        for (uint256 i = 0; i < nSwaps; i++) {
            swapOnce(IBenchPair(pairs[(salt + i) % np]), (salt + i) % 2 == 0, 1 + ((salt * 31 + i) % 10));
        }
        uint256 nv = vaults.length;
        for (uint256 i = 0; i < nFlows; i++) {
            IBenchVault vault = IBenchVault(vaults[(salt + i / 2) % nv]);
            uint256 amount = 10_000 + ((salt + i) % 1000);
            if (i % 2 == 0) vault.deposit(2 * amount, address(this));
            else vault.withdraw(amount, holder(salt * 104729 + i), address(this));
        }
    }

    /// @dev swaps `bps` hundredths of a percent of the input reserve through the pair
    function swapOnce(IBenchPair pair, bool zeroForOne, uint256 bps) internal {
        (uint112 r0, uint112 r1, ) = pair.getReserves();
        (uint256 rIn, uint256 rOut) = zeroForOne ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
        uint256 amountIn = (rIn * bps) / 1_000_000 + 1;
        uint256 amountOut = (amountIn * 997 * rOut) / (rIn * 1000 + amountIn * 997);
        IBenchToken(zeroForOne ? pair.token0() : pair.token1()).transfer(address(pair), amountIn);
        if (zeroForOne) pair.swap(0, amountOut, address(this), "");
        else pair.swap(amountOut, 0, address(this), "");
    }
}
