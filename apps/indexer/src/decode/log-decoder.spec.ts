import { Interface, type LogDescription } from 'ethers';
import fc from 'fast-check';
import type { RpcLog } from '@tokensvc/chain';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import { ADAPTERS } from '../adapters';
import type { PoolInfo } from '../model/registry.types';
import { ContractRegistry } from '../registry/contract-registry';
import { BatchAccumulator } from './batch-accumulator';
import { LogDecoder } from './log-decoder';

/**
 * The hand-written decoders against ethers' ABI encoder as the reference: random values are
 * encoded with ethers' Interface, decoded by topic0 + hex slicing, and must come back unchanged.
 */
const IFACE = new Interface([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Deposit(address indexed dst, uint256 wad)',
  'event Sync(uint112 reserve0, uint112 reserve1)',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  'event Mint(address indexed sender, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)',
]);
const V3 = new Interface([
  'event Initialize(uint160 sqrtPriceX96, int24 tick)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
  'event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
]);
const VAULT = new Interface([
  'event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares)',
  'event Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares)',
]);
const AAVE = new Interface([
  'event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode)',
  'event Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount)',
  'event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode)',
  'event Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens)',
  'event ReserveDataUpdated(address indexed reserve, uint256 liquidityRate, uint256 stableBorrowRate, uint256 variableBorrowRate, uint256 liquidityIndex, uint256 variableBorrowIndex)',
]);

const a = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;
const TOKEN = a(0x10);
const T0 = a(0x20);
const T1 = a(0x21);
const PAIR = a(0x30);
const V3POOL = a(0x31);
const VAULT_ADDR = a(0x40);
const MARKET = a(0x50);

const arbAddress = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString('hex')}`);
const uint = (bits: number): fc.Arbitrary<bigint> => fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n });
const int = (bits: number): fc.Arbitrary<bigint> => fc.bigInt({ min: -(1n << BigInt(bits - 1)), max: (1n << BigInt(bits - 1)) - 1n });
const tick = fc.integer({ min: -887272, max: 887272 });

function registry(): ContractRegistry {
  const r = new ContractRegistry('ethereum');
  for (const address of [TOKEN, T0, T1])
    r.addToken({ address, platform: 'basic', family: 'basic', underlying: [], poolAddress: null, listed: true, metadata: {} });
  r.addToken({
    address: PAIR,
    platform: 'uniswap-v2',
    family: 'uniswap-v2',
    underlying: [T0, T1],
    poolAddress: PAIR,
    listed: false,
    metadata: {},
  });
  r.addToken({
    address: VAULT_ADDR,
    platform: 'vaults',
    family: 'erc4626',
    underlying: [T0],
    poolAddress: VAULT_ADDR,
    listed: true,
    metadata: {},
  });
  const pool = (address: string, family: PoolInfo['family']): PoolInfo => ({
    address,
    platform: family,
    family,
    token0: T0,
    token1: T1,
    fee: 3000,
    tickSpacing: family === 'uniswap-v3' ? 60 : null,
    createdBlock: 1,
  });
  r.addPool(pool(PAIR, 'uniswap-v2'));
  r.addPool(pool(V3POOL, 'uniswap-v3'));
  r.addMarket({ address: MARKET, platform: 'aave-v3' });
  return r;
}

let logIndex = 0;
function log(address: string, iface: Interface, event: string, args: unknown[]): RpcLog {
  const { data, topics } = iface.encodeEventLog(iface.getEvent(event)!, args);
  return {
    address,
    topics,
    data,
    blockNumber: 10,
    blockHash: `0x${'ab'.repeat(32)}`,
    logIndex: logIndex++,
    transactionHash: `0x${'cd'.repeat(32)}`,
  };
}

function decode(...logs: RpcLog[]): BatchAccumulator {
  const acc = new BatchAccumulator(registry());
  new LogDecoder(Object.values(ADAPTERS)).decode(logs, acc);
  return acc;
}

/** ethers' own view of the log, as the reference the fast path must agree with. */
const parsed = (iface: Interface, l: RpcLog): LogDescription => iface.parseLog(l)!;

describe('LogDecoder (hand-written decoders vs ethers)', () => {
  it('decodes Transfer of a registered token', () => {
    fc.assert(
      fc.property(arbAddress, arbAddress, uint(256), (from, to, value) => {
        const l = log(TOKEN, IFACE, 'Transfer', [from, to, value]);
        const ref = parsed(IFACE, l);
        expect(decode(l).transfers).toEqual([
          {
            blockNumber: 10,
            logIndex: l.logIndex,
            txHash: l.transactionHash,
            token: TOKEN,
            from: (ref.args[0] as string).toLowerCase(),
            to: (ref.args[1] as string).toLowerCase(),
            value: ref.args[2],
          },
        ]);
      }),
    );
  });

  it('ignores Transfer of unregistered contracts and ERC-721 transfers (token id indexed)', () => {
    const erc721 = new Interface(['event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)']);
    expect(decode(log(a(0x99), IFACE, 'Transfer', [T0, T1, 5n]), log(TOKEN, erc721, 'Transfer', [T0, T1, 5n])).transfers).toEqual([]);
  });

  it('turns WETH Deposit into a mint', () => {
    fc.assert(
      fc.property(arbAddress, uint(256), (dst, wad) => {
        const [t] = decode(log(TOKEN, IFACE, 'Deposit', [dst, wad])).transfers;
        expect(t).toMatchObject({ token: TOKEN, from: ZERO_ADDRESS, to: dst.toLowerCase(), value: wad });
      }),
    );
  });

  it('decodes V2 Sync into pool state and Swap into amounts in/out', () => {
    fc.assert(
      fc.property(uint(112), uint(112), uint(128), uint(128), arbAddress, (r0, r1, in0, out1, to) => {
        const acc = decode(log(PAIR, IFACE, 'Sync', [r0, r1]), log(PAIR, IFACE, 'Swap', [T0, in0 + 1n, 0n, 0n, out1, to]));
        expect(acc.poolStates).toEqual([expect.objectContaining({ pool: PAIR, family: 'uniswap-v2', reserve0: r0, reserve1: r1 })]);
        expect(acc.swaps).toEqual([
          expect.objectContaining({
            pool: PAIR,
            account: to.toLowerCase(),
            tokenIn: T0,
            tokenOut: T1,
            amountIn: in0 + 1n,
            amountOut: out1,
          }),
        ]);
        expect(acc.registry.poolStates.get(PAIR)).toMatchObject({ reserve0: r0, reserve1: r1, logIndex: acc.poolStates[0]!.logIndex });
      }),
    );
  });

  it('decodes V2 Mint/Burn with the LP shares minted/burned in the same transaction', () => {
    const mintShares = log(PAIR, IFACE, 'Transfer', [ZERO_ADDRESS, T1, 777n]);
    const burnShares = log(PAIR, IFACE, 'Transfer', [PAIR, ZERO_ADDRESS, 555n]);
    const acc = decode(mintShares, log(PAIR, IFACE, 'Mint', [T0, 10n, 20n]), burnShares, log(PAIR, IFACE, 'Burn', [T0, 5n, 6n, T1]));
    expect(acc.liquidity).toEqual([
      expect.objectContaining({ kind: 'deposit', account: T0, amount0: 10n, amount1: 20n, shares: 777n }),
      expect.objectContaining({ kind: 'withdraw', account: T1, amount0: 5n, amount1: 6n, shares: 555n }),
    ]);
  });

  it('decodes V3 Initialize/Swap into price, tick and liquidity, signed amounts into in/out', () => {
    fc.assert(
      fc.property(uint(160), tick, int(256), int(256), uint(128), arbAddress, (sqrtPrice, t, amount0, amount1, liquidity, recipient) => {
        const swap = log(V3POOL, V3, 'Swap', [T0, recipient, amount0, amount1, sqrtPrice, liquidity, t]);
        const ref = parsed(V3, swap);
        const acc = decode(log(V3POOL, V3, 'Initialize', [sqrtPrice, t]), swap);
        expect(acc.poolStates[0]).toMatchObject({ sqrtPriceX96: sqrtPrice, tick: t });
        expect(acc.poolStates[1]).toMatchObject({ sqrtPriceX96: ref.args[4], liquidity: ref.args[5], tick: Number(ref.args[6]) });
        const zeroForOne = amount0 > 0n;
        expect(acc.swaps[0]).toMatchObject({
          account: recipient.toLowerCase(),
          tokenIn: zeroForOne ? T0 : T1,
          amountIn: zeroForOne ? amount0 : amount1,
          amountOut: zeroForOne ? -amount1 : -amount0,
        });
      }),
    );
  });

  it('keeps V3 ticks and active liquidity from Mint/Burn, and reserves from Transfers', () => {
    fc.assert(
      fc.property(tick, tick, uint(100), (x, y, amount) => {
        fc.pre(x !== y);
        const [lower, upper] = x < y ? [x, y] : [y, x];
        const current = lower; // in range: lower <= tick < upper
        const acc = decode(
          log(V3POOL, V3, 'Initialize', [1n << 96n, current]),
          log(T0, IFACE, 'Transfer', [TOKEN, V3POOL, 1000n]),
          log(V3POOL, V3, 'Mint', [TOKEN, TOKEN, lower, upper, amount, 1000n, 0n]),
          log(V3POOL, V3, 'Burn', [TOKEN, lower, upper, amount / 2n, 1n, 0n]),
        );
        const ticks = [...acc.tickDeltas.values()];
        expect(ticks).toEqual([
          { pool: V3POOL, tick: lower, blockNumber: 10, net: amount - amount / 2n, gross: amount - amount / 2n },
          { pool: V3POOL, tick: upper, blockNumber: 10, net: -(amount - amount / 2n), gross: amount - amount / 2n },
        ]);
        expect(acc.registry.poolStates.get(V3POOL)).toMatchObject({
          liquidity: amount - amount / 2n,
          reserve0: 1000n,
          reserve1: 0n,
          tick: current,
        });
        expect(acc.liquidity.map((l) => [l.kind, l.tickLower, l.tickUpper, l.shares])).toEqual([
          ['deposit', lower, upper, amount],
          ['withdraw', lower, upper, amount / 2n],
        ]);
      }),
    );
  });

  it('decodes ERC-4626 Deposit/Withdraw of a registered vault', () => {
    fc.assert(
      fc.property(arbAddress, arbAddress, uint(256), uint(256), (sender, owner, assets, shares) => {
        const acc = decode(
          log(VAULT_ADDR, VAULT, 'Deposit', [sender, owner, assets, shares]),
          log(VAULT_ADDR, VAULT, 'Withdraw', [sender, sender, owner, assets, shares]),
        );
        expect(acc.vaultFlows.map((f) => [f.kind, f.account, f.assets, f.shares])).toEqual([
          ['deposit', owner.toLowerCase(), assets, shares],
          ['withdraw', owner.toLowerCase(), assets, shares],
        ]);
      }),
    );
  });

  it('decodes Aave Supply/Withdraw/Borrow/Repay/ReserveDataUpdated of a registered market', () => {
    fc.assert(
      fc.property(arbAddress, arbAddress, uint(256), uint(256), (user, other, amount, rate) => {
        const acc = decode(
          log(MARKET, AAVE, 'Supply', [T0, other, user, amount, 0]),
          log(MARKET, AAVE, 'Withdraw', [T0, user, other, amount]),
          log(MARKET, AAVE, 'Borrow', [T0, other, user, amount, 2, rate, 0]),
          log(MARKET, AAVE, 'Repay', [T0, user, other, amount, false]),
          log(MARKET, AAVE, 'ReserveDataUpdated', [T0, rate, 0n, rate / 2n, rate / 3n, rate / 4n]),
        );
        expect(acc.lending.map((e) => [e.kind, e.asset, e.account, e.amount])).toEqual(
          ['deposit', 'withdraw', 'borrow', 'repay'].map((k) => [k, T0, user.toLowerCase(), amount]),
        );
        expect(acc.reserveRates).toEqual([
          expect.objectContaining({
            market: MARKET,
            asset: T0,
            liquidityRate: rate,
            variableBorrowRate: rate / 2n,
            liquidityIndex: rate / 3n,
            variableBorrowIndex: rate / 4n,
          }),
        ]);
      }),
    );
  });

  it('skips a registered contract log whose data is too short (wrong layout) and counts it', () => {
    const bad: RpcLog = { ...log(PAIR, IFACE, 'Sync', [1n, 2n]), data: '0x01' };
    const acc = new BatchAccumulator(registry());
    expect(new LogDecoder(Object.values(ADAPTERS)).decode([bad], acc)).toBe(1);
    expect(acc.poolStates).toEqual([]);
  });
});
