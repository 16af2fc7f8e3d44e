/**
 * One NetworkState per network, kept between batches. It is reused only when a batch starts
 * right after the block it is valid for; otherwise (first batch, failed transaction, rollback)
 * it is rebuilt from the database as of the block before the batch. A head refresh leaves it alone.
 */
import type { Network } from '@tokensvc/domain';
import type { DecodedBatch } from '../../model/decoded-batch';
import type { DeriveOptions } from '../derive-options';
import { DAY_SECONDS } from '../math/candles';
import { loadActivityVolumesSince } from '../repo/activities.repo';
import { loadSharePricesSince, loadStatesBefore } from '../repo/points.repo';
import { loadSwapVolumesSince } from '../repo/swap-volumes.repo';
import { loadPools, loadTokenMeta } from '../repo/registry.repo';
import type { SqlTx } from '../repo/sql';
import { NetworkState, unknownReferences, WEEK_SECONDS } from './network-state';
import { SWAP_VOLUME_ROLES } from './swap-volumes';

function addressOfKey(key: string): string {
  return key.slice(key.indexOf(':') + 1);
}

export async function loadNetworkState(
  tx: SqlTx,
  network: Network,
  fromBlock: number,
  fromTime: number,
  options: DeriveOptions,
): Promise<NetworkState> {
  const net = new NetworkState(network, fromBlock - 1, options);
  // One connection: queries run one after the other.
  const tokens = await loadTokenMeta(tx, network);
  const pools = await loadPools(tx, network, fromBlock);
  const states = await loadStatesBefore(tx, network, fromBlock);
  for (const t of tokens) net.tokens.set(t.address, t);
  for (const p of pools) {
    net.pools.set(p.meta.address, p.meta);
    if (p.state) net.poolStates.set(p.meta.address, p.state);
  }
  for (const s of states) {
    const address = addressOfKey(s.tokenKey);
    net.states.set(address, s);
    net.ledgers.set(address, { ...s.ledger });
    const role = net.tokens.get(address)?.role;
    if (role === 'basic' || role === 'other') net.graphPrices.set(address, s.price);
  }
  const keysOf = (...roles: string[]): string[] => tokens.filter((t) => roles.includes(t.role)).map((t) => t.key);
  const activities = await loadActivityVolumesSince(tx, keysOf('lp', 'vault', 'atoken'), fromTime - WEEK_SECONDS, fromBlock);
  const sharePrices = await loadSharePricesSince(tx, keysOf('vault'), fromTime - WEEK_SECONDS, fromBlock);
  for (const a of activities) {
    const address = addressOfKey(a.token_key);
    if (a.type === 'swap') net.swapWindow(address).add(a.time, a.volume_usd);
    if (a.time >= fromTime - DAY_SECONDS) net.volumeOf(address).add(a.time, a.volume_usd);
  }
  const swapVolumes = await loadSwapVolumesSince(tx, keysOf(...SWAP_VOLUME_ROLES), fromTime - DAY_SECONDS, fromBlock);
  for (const s of swapVolumes) net.volumeOf(addressOfKey(s.token_key)).add(s.time, s.volume_usd);
  for (const p of sharePrices) net.sharePriceSeries(addressOfKey(p.token_key)).push(p.time, p.pps);
  net.reindex();
  return net;
}

/**
 * Registers tokens and pools that appeared since the state was loaded: those the batch announces,
 * and any it refers to that the working set does not know (the token metadata is then reloaded;
 * addresses still unknown afterwards are remembered, so they cost one reload only).
 */
async function addNewEntries(tx: SqlTx, net: NetworkState, batch: DecodedBatch): Promise<void> {
  const { tokens: missing, pools: unknownPools } = unknownReferences(net, batch);
  if (missing.size === 0 && unknownPools.length === 0) return;
  if (missing.size > 0) for (const t of await loadTokenMeta(tx, net.network)) net.tokens.set(t.address, t);
  const pools = unknownPools.length ? await loadPools(tx, net.network, batch.fromBlock, unknownPools) : [];
  for (const p of pools) {
    net.pools.set(p.meta.address, p.meta);
    if (p.state) net.poolStates.set(p.meta.address, p.state);
  }
  net.reindex();
  for (const a of missing) if (a.includes('|') ? !net.aTokenByReserve.has(a) : !net.tokens.has(a)) net.unregistered.add(a);
  for (const a of unknownPools) if (!net.pools.has(a)) net.unregistered.add(a);
}

export class NetworkCache {
  private readonly byNetwork = new Map<Network, NetworkState>();

  constructor(private readonly options: DeriveOptions) {}

  async prepare(tx: SqlTx, batch: DecodedBatch): Promise<NetworkState> {
    const cached = this.byNetwork.get(batch.network);
    if (cached && cached.asOfBlock === batch.fromBlock - 1) {
      await addNewEntries(tx, cached, batch);
      return cached;
    }
    const fromTime = batch.blocks.reduce((m, b) => Math.min(m, b.timestamp), Infinity);
    if (!Number.isFinite(fromTime))
      throw new Error(`batch ${batch.network} ${batch.fromBlock}-${batch.toBlock} has events but no block headers`);
    const net = await loadNetworkState(tx, batch.network, batch.fromBlock, fromTime, this.options);
    this.byNetwork.set(batch.network, net);
    return net;
  }

  /** The working set of the network, if any. */
  current(network: Network): NetworkState | undefined {
    return this.byNetwork.get(network);
  }

  /** The working set if it is valid as of `block`. */
  validAt(network: Network, block: number): NetworkState | undefined {
    const cached = this.byNetwork.get(network);
    return cached && cached.asOfBlock === block ? cached : undefined;
  }

  /** An empty batch: a state valid just before it stays valid just after it. */
  skip(batch: DecodedBatch): void {
    const cached = this.byNetwork.get(batch.network);
    if (cached && cached.asOfBlock === batch.fromBlock - 1) cached.asOfBlock = batch.toBlock;
  }

  drop(network: Network): void {
    this.byNetwork.delete(network);
  }
}
