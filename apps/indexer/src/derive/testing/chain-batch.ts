/**
 * Test helper: builds the pipeline's DecodedBatch for a block range straight from eth_getLogs,
 * decoded with ethers' Interfaces (the reference decoder), the way the ingest pipeline would.
 * Stateful across consecutive ranges: V3 active liquidity and pool token balances carry over.
 */
import { Interface, type LogDescription } from 'ethers';
import { loadAaveArtifact, loadArtifact, loadUniswapV2Artifact, loadUniswapV3Artifact } from '@tokensvc/contracts';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import type { BlockHeader, DecodedBatch, PoolStateEvent } from '../../model/decoded-batch';
import { aavePoolAddress, lower, platformsOf, type World } from './devnet-world';
import { hex, rpc, rpcBatch, type RawLog } from './rpc';

const IFACE = {
  erc20: new Interface(loadArtifact('TestERC20').abi),
  v2: new Interface(loadUniswapV2Artifact('UniswapV2Pair').abi),
  v3: new Interface(loadUniswapV3Artifact('UniswapV3Pool').abi),
  vault: new Interface(loadArtifact('TestVault').abi),
  aave: new Interface(loadAaveArtifact('Pool').abi),
};

const topics = new Map<string, string>();
export function topic(iface: keyof typeof IFACE, event: string): string {
  const k = `${iface}.${event}`;
  let t = topics.get(k);
  if (t === undefined) topics.set(k, (t = IFACE[iface].getEvent(event)!.topicHash));
  return t;
}

interface V3Tracker {
  token0: string;
  token1: string;
  sqrt: bigint;
  tick: number;
  liquidity: bigint;
}

export class DecodedBatchBuilder {
  readonly tokens: Set<string>;
  readonly v2 = new Map<string, { token0: string; token1: string }>();
  readonly v3 = new Map<string, V3Tracker>();
  readonly vaults: Set<string>;
  readonly aavePool: string;
  /** `${token}|${holder}` balances of V3 pools (their reserves) */
  private readonly balances = new Map<string, bigint>();
  /** LP minted / burned earlier in the same transaction, for V2 Mint / Burn shares */
  private readonly lpMoves = new Map<string, { account: string; value: bigint }>();

  constructor(
    private readonly world: World,
    private readonly rpcUrl: string,
  ) {
    for (const p of platformsOf(world, 'uniswap-v2').flatMap((x) => x.pools))
      this.v2.set(lower(p.address), { token0: lower(p.token0), token1: lower(p.token1) });
    for (const p of platformsOf(world, 'uniswap-v3').flatMap((x) => x.pools))
      this.v3.set(lower(p.address), { token0: lower(p.token0), token1: lower(p.token1), sqrt: 0n, tick: 0, liquidity: 0n });
    this.vaults = new Set(platformsOf(world, 'erc4626').flatMap((x) => x.vaults.map((v) => lower(v.address))));
    const aTokens = platformsOf(world, 'aave-v3').flatMap((x) => x.markets.map((m) => lower(m.aToken)));
    this.tokens = new Set([...world.tokens.map((t) => lower(t.address)), ...this.v2.keys(), ...this.vaults, ...aTokens]);
    this.aavePool = aavePoolAddress(world);
  }

  async logs(fromBlock: number, toBlock: number): Promise<RawLog[]> {
    return rpc<RawLog[]>(this.rpcUrl, 'eth_getLogs', [{ fromBlock: hex(fromBlock), toBlock: hex(toBlock) }]);
  }

  async headers(fromBlock: number, toBlock: number): Promise<BlockHeader[]> {
    const calls: Array<[string, unknown[]]> = [];
    for (let b = fromBlock; b <= toBlock; b++) calls.push(['eth_getBlockByNumber', [hex(b), false]]);
    const blocks = await rpcBatch<{ number: string; hash: string; parentHash: string; timestamp: string }>(this.rpcUrl, calls);
    return blocks.map((b) => ({ number: Number(b.number), hash: b.hash, parentHash: b.parentHash, timestamp: Number(b.timestamp) }));
  }

  async build(fromBlock: number, toBlock: number): Promise<DecodedBatch> {
    const batch: DecodedBatch = {
      network: this.world.network,
      fromBlock,
      toBlock,
      blocks: await this.headers(fromBlock, toBlock),
      transfers: [],
      poolStates: [],
      swaps: [],
      liquidity: [],
      vaultFlows: [],
      lending: [],
      reserveRates: [],
      newTokens: [],
    };
    for (const log of await this.logs(fromBlock, toBlock)) this.decode(log, batch);
    return batch;
  }

  private decode(log: RawLog, b: DecodedBatch): void {
    const address = lower(log.address);
    const pos = { blockNumber: Number(log.blockNumber), logIndex: Number(log.logIndex), txHash: log.transactionHash };
    const parse = (iface: Interface): LogDescription | null => iface.parseLog({ topics: log.topics, data: log.data });
    if (log.topics[0] === topic('erc20', 'Transfer') && log.topics.length === 3 && this.tokens.has(address)) {
      const ev = parse(IFACE.erc20)!;
      const [from, to, value] = [lower(ev.args[0] as string), lower(ev.args[1] as string), ev.args[2] as bigint];
      b.transfers.push({ ...pos, token: address, from, to, value });
      this.credit(address, from, -value);
      this.credit(address, to, value);
      if (this.v2.has(address) && from === ZERO_ADDRESS && to !== ZERO_ADDRESS)
        this.lpMoves.set(`${address}|${log.transactionHash}|mint`, { account: to, value });
      if (this.v2.has(address) && from === address && to === ZERO_ADDRESS)
        this.lpMoves.set(`${address}|${log.transactionHash}|burn`, { account: from, value });
      return;
    }
    const pair = this.v2.get(address);
    if (pair) return this.decodeV2(address, pair, parse(IFACE.v2), pos, b);
    const pool = this.v3.get(address);
    if (pool) return this.decodeV3(address, pool, parse(IFACE.v3), pos, b);
    if (this.vaults.has(address)) {
      const ev = parse(IFACE.vault);
      if (ev?.name === 'Deposit')
        b.vaultFlows.push({
          ...pos,
          vault: address,
          kind: 'deposit',
          account: lower(ev.args[1] as string),
          assets: ev.args[2] as bigint,
          shares: ev.args[3] as bigint,
        });
      if (ev?.name === 'Withdraw')
        b.vaultFlows.push({
          ...pos,
          vault: address,
          kind: 'withdraw',
          account: lower(ev.args[2] as string),
          assets: ev.args[3] as bigint,
          shares: ev.args[4] as bigint,
        });
      return;
    }
    if (address === this.aavePool) this.decodeAave(parse(IFACE.aave), pos, b);
  }

  private credit(token: string, holder: string, value: bigint): void {
    const k = `${token}|${holder}`;
    this.balances.set(k, (this.balances.get(k) ?? 0n) + value);
  }

  private decodeV2(
    address: string,
    pair: { token0: string; token1: string },
    ev: LogDescription | null,
    pos: { blockNumber: number; logIndex: number; txHash: string },
    b: DecodedBatch,
  ): void {
    const base = { ...pos, pool: address, family: 'uniswap-v2' as const };
    switch (ev?.name) {
      case 'Sync':
        b.poolStates.push({ ...base, reserve0: ev.args[0] as bigint, reserve1: ev.args[1] as bigint });
        return;
      case 'Swap': {
        const [a0In, a1In, a0Out, a1Out] = [ev.args[1], ev.args[2], ev.args[3], ev.args[4]] as bigint[];
        const zeroForOne = a0In! > 0n;
        b.swaps.push({
          ...base,
          account: lower(ev.args[5] as string),
          tokenIn: zeroForOne ? pair.token0 : pair.token1,
          tokenOut: zeroForOne ? pair.token1 : pair.token0,
          amountIn: zeroForOne ? a0In! : a1In!,
          amountOut: zeroForOne ? a1Out! : a0Out!,
        });
        return;
      }
      case 'Mint':
      case 'Burn': {
        const kind = ev.name === 'Mint' ? 'deposit' : 'withdraw';
        const move = this.lpMoves.get(`${address}|${pos.txHash}|${ev.name === 'Mint' ? 'mint' : 'burn'}`);
        const account = ev.name === 'Burn' ? lower(ev.args[3] as string) : (move?.account ?? lower(ev.args[0] as string));
        b.liquidity.push({
          ...base,
          kind,
          account,
          amount0: ev.args[1] as bigint,
          amount1: ev.args[2] as bigint,
          shares: move?.value ?? 0n,
        });
        return;
      }
      default:
        return;
    }
  }

  private v3State(address: string, p: V3Tracker, pos: { blockNumber: number; logIndex: number; txHash: string }): PoolStateEvent {
    return {
      ...pos,
      pool: address,
      family: 'uniswap-v3',
      reserve0: this.balances.get(`${p.token0}|${address}`) ?? 0n,
      reserve1: this.balances.get(`${p.token1}|${address}`) ?? 0n,
      sqrtPriceX96: p.sqrt,
      liquidity: p.liquidity,
      tick: p.tick,
    };
  }

  private decodeV3(
    address: string,
    p: V3Tracker,
    ev: LogDescription | null,
    pos: { blockNumber: number; logIndex: number; txHash: string },
    b: DecodedBatch,
  ): void {
    const base = { ...pos, pool: address, family: 'uniswap-v3' as const };
    switch (ev?.name) {
      case 'Initialize':
        p.sqrt = ev.args[0] as bigint;
        p.tick = Number(ev.args[1]);
        b.poolStates.push(this.v3State(address, p, pos));
        return;
      case 'Swap': {
        const [amount0, amount1] = [ev.args[2] as bigint, ev.args[3] as bigint];
        p.sqrt = ev.args[4] as bigint;
        p.liquidity = ev.args[5] as bigint;
        p.tick = Number(ev.args[6]);
        b.poolStates.push(this.v3State(address, p, pos));
        const zeroForOne = amount0 > 0n;
        b.swaps.push({
          ...base,
          account: lower(ev.args[1] as string),
          tokenIn: zeroForOne ? p.token0 : p.token1,
          tokenOut: zeroForOne ? p.token1 : p.token0,
          amountIn: zeroForOne ? amount0 : amount1,
          amountOut: zeroForOne ? -amount1 : -amount0,
        });
        return;
      }
      case 'Mint':
      case 'Burn': {
        const mint = ev.name === 'Mint';
        const [tickLower, tickUpper] = mint ? [Number(ev.args[2]), Number(ev.args[3])] : [Number(ev.args[1]), Number(ev.args[2])];
        const amount = (mint ? ev.args[4] : ev.args[3]) as bigint;
        if (tickLower <= p.tick && p.tick < tickUpper) p.liquidity += mint ? amount : -amount;
        b.poolStates.push(this.v3State(address, p, pos));
        b.liquidity.push({
          ...base,
          kind: mint ? 'deposit' : 'withdraw',
          account: lower(ev.args[mint ? 1 : 0] as string),
          amount0: (mint ? ev.args[5] : ev.args[4]) as bigint,
          amount1: (mint ? ev.args[6] : ev.args[5]) as bigint,
          shares: amount,
          tickLower,
          tickUpper,
        });
        return;
      }
      default:
        return;
    }
  }

  private decodeAave(ev: LogDescription | null, pos: { blockNumber: number; logIndex: number; txHash: string }, b: DecodedBatch): void {
    if (!ev) return;
    const market = this.aavePool;
    const asset = lower(ev.args[0] as string);
    const flow = (kind: 'deposit' | 'withdraw' | 'borrow' | 'repay', account: unknown, amount: unknown): void => {
      b.lending.push({ ...pos, market, asset, kind, account: lower(account as string), amount: amount as bigint });
    };
    switch (ev.name) {
      case 'Supply':
        return flow('deposit', ev.args[2], ev.args[3]);
      case 'Withdraw':
        return flow('withdraw', ev.args[1], ev.args[3]);
      case 'Borrow':
        return flow('borrow', ev.args[2], ev.args[3]);
      case 'Repay':
        return flow('repay', ev.args[1], ev.args[3]);
      case 'ReserveDataUpdated':
        b.reserveRates.push({
          ...pos,
          market,
          asset,
          liquidityRate: ev.args[1] as bigint,
          variableBorrowRate: ev.args[3] as bigint,
          liquidityIndex: ev.args[4] as bigint,
          variableBorrowIndex: ev.args[5] as bigint,
        });
        return;
      default:
        return;
    }
  }
}
