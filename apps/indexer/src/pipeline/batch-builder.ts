import { readErc20Metadata, sortLogs, type AdaptiveRange, type ChainReader, type RpcBlockHeader, type RpcLog } from '@tokensvc/chain';
import { NETWORK_INFO, tokenKey, type Network } from '@tokensvc/domain';
import { BatchAccumulator } from '../decode/batch-accumulator';
import type { LogDecoder } from '../decode/log-decoder';
import type { ContractRegistry } from '../registry/contract-registry';
import type { PoolState, TokenSeed } from '../registry/registry.types';
import type { PoolWithState } from '../store/pools.repo';
import type { TokenRow } from '../store/tokens.repo';
import type { BlockHeader, DecodedBatch } from './decoded-batch';
import { checkLogsAgainstHeaders, readHeaders, type FetchedRange } from './range-prefetcher';

/** One range decoded and ready to write in one transaction. */
export interface BuiltBatch {
  network: Network;
  from: number;
  to: number;
  /** hash of block `to` (the cursor's hash after the batch) */
  toHash: string;
  headers: BlockHeader[];
  acc: BatchAccumulator;
  newTokens: TokenRow[];
  newPools: PoolWithState[];
  /** last state of every pool the batch changed (copies: the registry moves on with the next batch) */
  changedPools: Array<{ pool: string; state: PoolState }>;
  decoded: DecodedBatch;
  logCount: number;
  malformed: number;
}

const NATIVE_NAMES: Record<string, string> = { ETH: 'Ether', POL: 'Polygon Ecosystem Token', AVAX: 'Avalanche', BNB: 'BNB', S: 'Sonic', HYPE: 'Hype', XPL: 'Plasma', FLR: 'Flare' };

export const tokenImage = (network: Network, address: string): string => `/images/tokens/${network}/${address}.svg`;

/**
 * Turns a fetched range into a batch: registers what the range's discovery events create (and
 * pending configured tokens), reads the logs of contracts registered after the range was
 * requested, reads new tokens' ERC-20 metadata in one multicall, then decodes every log in chain
 * order. Mutates the registry; the caller reloads it from Postgres if the batch is not committed.
 */
export class BatchBuilder {
  constructor(
    private readonly reader: ChainReader,
    private readonly decoder: LogDecoder,
    private readonly range: AdaptiveRange,
  ) {}

  async build(fr: FetchedRange, registry: ContractRegistry, pendingSeeds: TokenSeed[]): Promise<BuiltBatch> {
    const network = registry.network;
    const newTokens: Array<{ seed: TokenSeed; block: number }> = pendingSeeds.splice(0).map((seed) => ({ seed, block: fr.from }));
    const newPools: PoolWithState[] = [];
    const registeredAt = new Map<string, number>();
    for (const { log, discovery } of this.decoder.discover(fr.logs, registry)) {
      if (discovery.kind === 'pool') {
        const state = initialState(discovery.pool.family, log);
        if (registry.addPool(discovery.pool, state)) {
          newPools.push({ info: discovery.pool, state: { ...state } });
          registeredAt.set(discovery.pool.address, log.blockNumber);
        }
      } else if (discovery.kind === 'token') {
        if (registry.addToken(discovery.token)) {
          newTokens.push({ seed: discovery.token, block: log.blockNumber });
          registeredAt.set(discovery.token.address, log.blockNumber);
        }
      } else registry.addMarket({ address: discovery.address, platform: discovery.platform });
    }

    const logs = await this.withLateContracts(fr, registry, registeredAt);
    const missing = [...new Set(logs.map((l) => l.blockNumber))].filter((n) => !fr.headers.has(n));
    if (missing.length > 0) for (const [n, h] of await readHeaders(this.reader, missing)) fr.headers.set(n, h);
    checkLogsAgainstHeaders(logs, fr.headers);

    const tokenRows = await this.tokenRows(network, newTokens, fr.headers);
    const acc = new BatchAccumulator(registry);
    const malformed = this.decoder.decode(logs, acc);
    const headers = [...fr.headers.values()].sort((a, b) => a.number - b.number);
    const toHeader = fr.headers.get(fr.to)!;
    const decoded: DecodedBatch = {
      network,
      fromBlock: fr.from,
      toBlock: fr.to,
      blocks: headers,
      transfers: acc.transfers,
      poolStates: acc.poolStates,
      swaps: acc.swaps,
      liquidity: acc.liquidity,
      vaultFlows: acc.vaultFlows,
      lending: acc.lending,
      reserveRates: acc.reserveRates,
      newTokens: tokenRows.map((t) => t.key),
    };
    const changedPools = [...acc.changedPools].map((pool) => ({ pool, state: { ...registry.poolStates.get(pool)! } }));
    return { network, from: fr.from, to: fr.to, toHash: toHeader.hash, headers, acc, newTokens: tokenRows, newPools, changedPools, decoded, logCount: logs.length, malformed };
  }

  /**
   * Logs of contracts that joined the watch list after this range was requested (found by an
   * earlier range, or by this one at block N: read from N on, as a fresh index would).
   */
  private async withLateContracts(fr: FetchedRange, registry: ContractRegistry, registeredAt: ReadonlyMap<string, number>): Promise<RpcLog[]> {
    const late = registry.addresses.slice(fr.watchedCount);
    if (late.length === 0) return fr.logs;
    const byStart = new Map<number, string[]>();
    for (const a of late) {
      const start = Math.max(fr.from, registeredAt.get(a) ?? fr.from);
      byStart.set(start, [...(byStart.get(start) ?? []), a]);
    }
    const logs = [...fr.logs];
    for (const [start, addresses] of byStart) logs.push(...(await this.reader.logsAdaptive({ addresses, topic0: this.decoder.topics }, start, fr.to, this.range)));
    sortLogs(logs);
    return logs;
  }

  private async tokenRows(network: Network, found: ReadonlyArray<{ seed: TokenSeed; block: number }>, headers: ReadonlyMap<number, RpcBlockHeader>): Promise<TokenRow[]> {
    if (found.length === 0) return [];
    const erc20 = found.filter((f) => f.seed.family !== 'native').map((f) => f.seed.address);
    const meta = erc20.length > 0 ? await readErc20Metadata(this.reader.client, erc20) : new Map();
    const info = NETWORK_INFO[network];
    return found.map(({ seed, block }) => {
      const m = seed.family === 'native' ? { name: NATIVE_NAMES[info.nativeSymbol] ?? info.nativeSymbol, symbol: info.nativeSymbol, decimals: 18 } : meta.get(seed.address);
      const image = tokenImage(network, seed.address);
      return {
        key: tokenKey(network, seed.address),
        network,
        address: seed.address,
        platform: seed.platform,
        family: seed.family,
        name: m?.name ?? '',
        symbol: m?.symbol ?? '',
        decimals: m?.decimals ?? 18,
        underlying: seed.underlying,
        poolAddress: seed.poolAddress,
        image,
        images: [image],
        metadata: m ? seed.metadata : { ...seed.metadata, metadataUnavailable: true },
        isPortable: seed.listed && (seed.family === 'basic' || seed.family === 'native'),
        isVerified: seed.listed,
        createdAt: headers.get(block)!.timestamp,
        createdBlock: block,
      };
    });
  }
}

function initialState(family: 'uniswap-v2' | 'uniswap-v3', log: RpcLog): PoolState {
  return { reserve0: 0n, reserve1: 0n, sqrtPriceX96: null, liquidity: family === 'uniswap-v3' ? 0n : null, tick: null, blockNumber: log.blockNumber, logIndex: log.logIndex };
}
