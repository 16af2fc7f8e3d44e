/**
 * topic0 of every event the indexer reads (keccak256 of the signature; `topics.spec.ts` checks
 * each against ethers). Hex constants so the hot path compares strings, nothing else.
 */
export const TOPICS = {
  /** Transfer(address indexed from, address indexed to, uint256 value) */
  transfer: '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
  /** WETH9 Deposit(address indexed dst, uint256 wad): a mint without a Transfer event */
  wethDeposit: '0xe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c',
  /** WETH9 Withdrawal(address indexed src, uint256 wad): a burn without a Transfer event */
  wethWithdrawal: '0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65',
  /** PairCreated(address indexed token0, address indexed token1, address pair, uint256) */
  v2PairCreated: '0x0d3648bd0f6ba80134a33ba9275ac585d9d315f0ad8355cddefde31afa28d0e9',
  /** Sync(uint112 reserve0, uint112 reserve1) */
  v2Sync: '0x1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1',
  /** Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to) */
  v2Swap: '0xd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822',
  /** Mint(address indexed sender, uint256 amount0, uint256 amount1) */
  v2Mint: '0x4c209b5fc8ad50758f13e2e1088ba56a560dff690a1c6fef26394f4c03821c4f',
  /** Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to) */
  v2Burn: '0xdccd412f0b1252819cb1fd330b93224ca42612892bb3f4f789976e6d81936496',
  /** PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool) */
  v3PoolCreated: '0x783cca1c0412dd0d695e784568c96da2e9c22ff989357a2e8b1d9b2b4e6b7118',
  /** Initialize(uint160 sqrtPriceX96, int24 tick) */
  v3Initialize: '0x98636036cb66a9c19a37435efc1e90142190214e8abeb821bdba3f2990dd4c95',
  /** Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick) */
  v3Swap: '0xc42079f94a6350d7e6235f29174924f928cc2ac818eb64fed8004e115fbcca67',
  /** Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1) */
  v3Mint: '0x7a53080ba414158be7ec69b987b5fb7d07dee101fe85488f0853ae16239d0bde',
  /** Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1) */
  v3Burn: '0x0c396cd989a39f4459b5fa1aed6a9a8dcdbc45908acfd67e028cd568da98982c',
  /** ERC-4626 Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares) */
  vaultDeposit: '0xdcbc1c05240f31ff3ad067ef1ee35ce4997762752e3a095284754544f4c709d7',
  /** ERC-4626 Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares) */
  vaultWithdraw: '0xfbde797d201c681b91056529119e0b02407c7bb96a4a2c75c01fc9667232c8db',
  /** Aave PoolConfigurator ReserveInitialized(address indexed asset, address indexed aToken, address stableDebtToken, address variableDebtToken, address interestRateStrategyAddress) */
  aaveReserveInitialized: '0x3a0ca721fc364424566385a1aa271ed508cc2c0949c2272575fb3013a163a45f',
  /** Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode) */
  aaveSupply: '0x2b627736bca15cd5381dcf80b0bf11fd197d01a037c52b927a881a10fb73ba61',
  /** Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount) */
  aaveWithdraw: '0x3115d1449a7b732c986cba18244e897a450f61e1bb8d589cd2e69e6c8924f9f7',
  /** Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode) */
  aaveBorrow: '0xb3d084820fb1a9decffb176436bd02558d15fac9b0ddfed8c465bc7359d7dce0',
  /** Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens) */
  aaveRepay: '0xa534c8dbe71f871f9f3530e97a74601fea17b426cae02e1c5aee42c96c784051',
  /** ReserveDataUpdated(address indexed reserve, uint256 liquidityRate, uint256 stableBorrowRate, uint256 variableBorrowRate, uint256 liquidityIndex, uint256 variableBorrowIndex) */
  aaveReserveDataUpdated: '0x804c9b842b2748a22bb64b345453a3de7ca54a6ca45ce00d415894979e22897a',
} as const;
