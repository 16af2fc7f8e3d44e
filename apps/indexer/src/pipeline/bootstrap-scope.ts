import type { Pool } from 'pg';
import type { ChainReader, PlatformDefinition } from '@tokensvc/chain';
import { MULTICALL3_ADDRESS, type Network } from '@tokensvc/domain';
import { shapeOf } from '@tokensvc/protocols';
import type { NetworkIndexingConfig } from '../config/indexer-config';
import type { DecodedBatch, PoolStateEvent } from '../model/decoded-batch';
import type { DerivationStage } from '../model/derivation.port';
import type { TokenSeed } from '../model/registry.types';
import type { SqlTx } from '../model/sql-tx';
import { insertBlocks } from '../store/blocks.repo';
import { moveCursor } from '../store/cursor.repo';
import { fenceWriteTx, LeaseLostError } from '../store/lease.repo';
import { insertPools } from '../store/pools.repo';
import { inTransaction } from '../store/sql-tx';
import { applyTickDeltas } from '../store/ticks.repo';
import { insertTokens } from '../store/tokens.repo';
import { platformNames, readTokenRows } from './batch-builder';
import { applyPoolFloor, toBaseUnits } from './bootstrap-floor';
import { readLedgers } from './bootstrap-ledgers';
import { readScopeSnapshot } from './bootstrap-read';
import { readHeaders } from './range-prefetcher';

export interface BootstrapContext {
  pool: Pool;
  reader: ChainReader;
  derive: DerivationStage;
  cfg: NetworkIndexingConfig;
  platforms: readonly PlatformDefinition[];
  /** the lease holder (every write is fenced) */
  holder: string;
  /** the node's head (the finalized block written with the cursor is head - finality depth) */
  head: number;
  /** configured tokens not stored yet (listed tokens, the native coin, vaults): written with the bootstrap */
  pendingSeeds: readonly TokenSeed[];
  log(message: unknown): void;
}

export interface BootstrapResult {
  block: number;
  pools: number;
  ticks: number;
  tokens: number;
  belowFloor: number;
  unpriced: number;
  /** reading and writing it took this long */
  ms: number;
}

/**
 * Whether the network's cursor is the fresh one of a start block with history before it
 * (NetworkIndexingConfig.bootstrap): nothing read yet (no hash), at startBlock - 1, startBlock > 0.
 */
/** No token of the network is stored: the bootstrap has not run (a rollback to the start block rewinds the cursor, not this). */
export async function nothingStored(q: SqlTx, network: Network): Promise<boolean> {
  return (await q.query(`SELECT 1 FROM tokens WHERE network = $1 LIMIT 1`, [network])).length === 0;
}

export function needsBootstrap(cfg: NetworkIndexingConfig, cursor: { blockNumber: number; blockHash: string }): boolean {
  return cfg.bootstrap === true && cfg.startBlock > 0 && cursor.blockHash === '' && cursor.blockNumber === cfg.startBlock - 1;
}

/**
 * The start-block bootstrap: what the scope holds at block startBlock - 1 (pools of the listed
 * pairs with their state and initialised ticks, aTokens of the listed reserves; see
 * readScopeSnapshot), read by Multicall3 at that block, written as if discovered and updated at
 * that block, in one fenced transaction that also stores the block's header and gives the cursor
 * its hash. The tokens' supplies, vault assets and Aave reserve data read at the same block
 * (readLedgers) start the derivation stage's bookkeeping, which gets the pools' states as one
 * batch at that block (prices from the start). Logs are then followed from the start block on top
 * of it; a crash before the commit leaves nothing (the next start bootstraps again: the cursor
 * still has no hash).
 * Returns undefined when Multicall3 has no code at that block (nothing to read: the chain is
 * then indexed from the start block as if it began there).
 */
export async function bootstrapScope(c: BootstrapContext): Promise<BootstrapResult | undefined> {
  const started = Date.now();
  const { network, startBlock } = c.cfg;
  const block = startBlock - 1;
  const tag = `0x${block.toString(16)}`;
  const client = c.reader.client;
  if ((await client.call<string>('eth_getCode', [MULTICALL3_ADDRESS, tag])) === '0x') {
    c.log({ msg: 'start-block bootstrap skipped: no Multicall3 at the block before the start block', network, block });
    return undefined;
  }
  const header = (await readHeaders(c.reader, [block])).get(block)!;
  const raw = await readScopeSnapshot(client, c.platforms, c.cfg.listedTokens, block);
  // Whole wrapped-native tokens: every supported network's wrapped native (WETH, WPOL, WAVAX, WBNB, ...) has 18 decimals.
  const floor = c.cfg.poolFloorNative ? toBaseUnits(c.cfg.poolFloorNative, 18) : 0n;
  const { snapshot, belowFloor, unpriced } = applyPoolFloor(raw, c.cfg.wrappedNative, floor);
  const seeds = new Map<string, TokenSeed>();
  for (const s of [...c.pendingSeeds, ...snapshot.tokens]) if (!seeds.has(s.address)) seeds.set(s.address, s);
  const found = [...seeds.values()].map((seed) => ({ seed, block }));
  const tokenRows = await readTokenRows(client, network, found, new Map([[block, header]]), platformNames(c.platforms), startBlock);
  const batch = derivedBatch(
    network,
    block,
    header,
    snapshot.pools,
    tokenRows.map((t) => t.key),
  );
  batch.ledgers = await readLedgers(client, [...seeds.values()], block);

  await inTransaction(c.pool, async (tx) => {
    if (!(await fenceWriteTx(tx, network, c.holder))) throw new LeaseLostError(`${network}: lease lost to another replica`);
    const fresh = await tx.query(`SELECT 1 FROM index_cursors WHERE network = $1 AND block_number = $2 AND block_hash = '' FOR UPDATE`, [
      network,
      block,
    ]);
    if (fresh.length === 0) throw new LeaseLostError(`${network}: the cursor moved during the start-block bootstrap: another writer`);
    if (!(await nothingStored(tx, network)))
      throw new LeaseLostError(`${network}: tokens were written during the start-block bootstrap: another writer`);
    await insertBlocks(tx, network, [header]);
    await insertTokens(tx, tokenRows);
    await insertPools(tx, network, snapshot.pools);
    await applyTickDeltas(tx, network, snapshot.ticks);
    await c.derive.applyBatch(tx, batch, { backfilling: true });
    await moveCursor(tx, network, block, header.hash, Math.max(0, Math.min(block, c.head - c.cfg.finalityDepth)), null, true);
  });
  return {
    block,
    pools: snapshot.pools.length,
    ticks: snapshot.ticks.length,
    tokens: tokenRows.length,
    belowFloor,
    unpriced,
    ms: Date.now() - started,
  };
}

/** The bootstrapped pools' states as one derivation batch at `block` (no transaction: txHash ''). */
function derivedBatch(
  network: Network,
  block: number,
  header: { number: number; hash: string; parentHash: string; timestamp: number },
  pools: ReturnType<typeof applyPoolFloor>['snapshot']['pools'],
  newTokens: string[],
): DecodedBatch {
  const poolStates: PoolStateEvent[] = pools.map(({ info, state }) => {
    const ev: PoolStateEvent = {
      blockNumber: block,
      logIndex: 0,
      txHash: '',
      pool: info.address,
      family: info.family,
      reserve0: state.reserve0,
      reserve1: state.reserve1,
    };
    if (shapeOf(info.family) === 'concentrated') {
      ev.sqrtPriceX96 = state.sqrtPriceX96 ?? 0n;
      ev.liquidity = state.liquidity ?? 0n;
      ev.tick = state.tick ?? 0;
    }
    return ev;
  });
  return {
    network,
    fromBlock: block,
    toBlock: block,
    blocks: [{ number: header.number, hash: header.hash, parentHash: header.parentHash, timestamp: header.timestamp }],
    transfers: [],
    poolStates,
    swaps: [],
    liquidity: [],
    vaultFlows: [],
    lending: [],
    reserveRates: [],
    newTokens,
  };
}
