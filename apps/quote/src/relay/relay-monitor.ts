/**
 * Samples the relayer's health into Prometheus gauges, per network, every RELAY_METRICS_INTERVAL_MS:
 * the gas wallet's balance, the relayed orders still pending (and those pending longer than
 * RELAY_STUCK_AFTER_MS, and the oldest one's age), and the nonce gap: nonces between the chain's
 * mined count and the stored next nonce that no pending order holds (what nonce-reconciler.ts
 * repairs; every later transaction waits behind it). Reads only: no lock is taken.
 */
import { formatEther } from 'ethers';
import type { Pool } from 'pg';
import type { Network } from '@tokensvc/domain';
import { QUOTE_METRICS } from '../metrics';
import type { RelayNetwork } from './relay-types';

export interface RelaySample {
  network: Network;
  balanceWei: bigint;
  pending: number;
  stuck: number;
  oldestPendingSeconds: number;
  nonceGap: number;
}

interface Row {
  pending: number;
  stuck: number;
  oldest: number;
  held: number;
  stored: string | null;
}

export class RelayMonitor {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly pool: Pick<Pool, 'query'>,
    private readonly networks: ReadonlyMap<Network, RelayNetwork>,
    private readonly o: { stuckAfterMs: number; intervalMs: number },
    private readonly log: (msg: string) => void = () => undefined,
  ) {}

  /** Samples now, then every intervalMs until stop(). */
  start(): void {
    void this.sample();
    this.timer = setInterval(() => void this.sample(), this.o.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One sample of every network (a failing network keeps its last values and counts an error). */
  async sample(): Promise<RelaySample[]> {
    const out = await Promise.all(
      [...this.networks.values()].map((net) =>
        this.sampleNetwork(net).catch((e: Error) => {
          QUOTE_METRICS.relayMonitorErrors.inc({ network: net.network });
          this.log(`relay metrics ${net.network}: ${e.message}`);
          return undefined;
        }),
      ),
    );
    return out.filter((s): s is RelaySample => s !== undefined);
  }

  private async sampleNetwork(net: RelayNetwork): Promise<RelaySample> {
    const relayer = net.wallet.address.toLowerCase();
    const [balanceHex, minedHex] = await Promise.all([
      net.rpc.call<string>('eth_getBalance', [relayer, 'latest']),
      net.rpc.call<string>('eth_getTransactionCount', [relayer, 'latest']),
    ]);
    const mined = BigInt(minedHex);
    const { rows } = await this.pool.query<Row>(
      `SELECT count(*) FILTER (WHERE s.state = 'pending')::int AS pending,
              count(*) FILTER (WHERE s.state = 'pending' AND s.created_at < now() - $3::int * interval '1 millisecond')::int AS stuck,
              coalesce(extract(epoch FROM now() - min(s.created_at) FILTER (WHERE s.state = 'pending')), 0)::float8 AS oldest,
              count(*) FILTER (WHERE s.state = 'pending' AND s.relayer = $2 AND s.nonce >= $4::bigint)::int AS held,
              (SELECT next_nonce::text FROM relayer_nonces WHERE network = $1 AND relayer = $2) AS stored
         FROM relay_submissions s WHERE s.network = $1`,
      [net.network, relayer, this.o.stuckAfterMs, mined.toString()],
    );
    const r = rows[0]!;
    const stored = r.stored === null ? 0n : BigInt(r.stored);
    const gap = stored > mined ? Math.max(0, Number(stored - mined) - r.held) : 0;
    const balanceWei = BigInt(balanceHex);
    const labels = { network: net.network };
    QUOTE_METRICS.relayerBalance.set(labels, Number(formatEther(balanceWei)));
    QUOTE_METRICS.relayPending.set(labels, r.pending);
    QUOTE_METRICS.relayStuck.set(labels, r.stuck);
    QUOTE_METRICS.relayOldestPending.set(labels, r.oldest);
    QUOTE_METRICS.nonceGap.set(labels, gap);
    return { network: net.network, balanceWei, pending: r.pending, stuck: r.stuck, oldestPendingSeconds: r.oldest, nonceGap: gap };
  }
}
