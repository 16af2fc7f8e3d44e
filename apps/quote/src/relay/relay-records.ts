/**
 * The relayer's rows in Postgres. Every database transaction here is short and makes no RPC call:
 * what the chain says is read before (and the result recorded after) in statements of their own,
 * so a slow node never holds an order, nonce or sender lock. The only work under a lock besides
 * SQL is signing, which is local.
 */
import { Transaction } from 'ethers';
import type { Pool, PoolClient } from 'pg';
import { ErrorCode } from '@tokensvc/messages';
import { inTransaction } from '@tokensvc/persistence';
import { ServiceError } from '@tokensvc/transport';
import { reconcileLocked, type ChainView, type Reconciled } from './nonce-reconciler';
import type { StoredOrder } from './order-store';
import type { RelayNetwork, RelayOptions, SubmissionRow, TxRow } from './relay-types';

type Queryable = Pick<PoolClient, 'query'>;

/** An order transaction ready to sign: everything the chain was asked before the claim. */
export interface Unsigned {
  to: string;
  data: string;
  gasLimit: bigint;
  maxFee: bigint;
  priority: bigint;
}

export type Claim = { existing: SubmissionRow } | { created: { reconciled: Reconciled; stored: bigint; hash: string } };

export class RelayRecords {
  constructor(private readonly pool: Pool) {}

  /** `fn` in one database transaction (committed, or rolled back on a throw). */
  tx<T>(fn: (client: PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, fn);
  }

  async submission(orderId: string, db: Queryable = this.pool, forUpdate = false): Promise<SubmissionRow | undefined> {
    const { rows } = await db.query<SubmissionRow>(`SELECT * FROM relay_submissions WHERE order_id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [
      orderId,
    ]);
    return rows[0];
  }

  async transactions(orderId: string, db: Queryable = this.pool): Promise<TxRow[]> {
    const { rows } = await db.query<TxRow>(`SELECT * FROM relay_transactions WHERE order_id = $1 ORDER BY attempt`, [orderId]);
    return rows;
  }

  async latestHash(orderId: string): Promise<string | undefined> {
    return (await this.transactions(orderId)).at(-1)?.tx_hash;
  }

  /** The stored next nonce, its row locked to the end of `client`'s transaction (created at 0). */
  async lockNonce(client: Queryable, network: string, relayer: string): Promise<bigint> {
    await client.query(`INSERT INTO relayer_nonces (network, relayer, next_nonce) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING`, [
      network,
      relayer,
    ]);
    const { rows } = await client.query<{ next_nonce: string }>(
      `SELECT next_nonce FROM relayer_nonces WHERE network = $1 AND relayer = $2 FOR UPDATE`,
      [network, relayer],
    );
    return BigInt(rows[0]!.next_nonce);
  }

  /**
   * The claim of an order (one short transaction, checked and simulated before): under the order's
   * row lock, concurrent POSTs of one order wait for the first and find its submission (the
   * primary key makes a second one impossible); one sender's claims take turns (an advisory lock),
   * so the pending cap holds however many arrive at once; the nonce is taken under its row lock,
   * corrected by `seen`, and the signed raw transaction is stored with it: once committed it is
   * always broadcast (again) until something with that nonce is mined, so a crash leaves neither a
   * lost order nor a nonce gap.
   */
  async claim(
    order: StoredOrder,
    signature: string,
    net: RelayNetwork,
    seen: ChainView,
    tx: Unsigned,
    limits: Pick<RelayOptions, 'maxPendingPerSender' | 'senderStrikes' | 'strikeWindowMs'>,
  ): Promise<Claim> {
    const { maxPendingPerSender } = limits;
    return this.tx(async (client) => {
      await client.query(`SELECT 1 FROM orders WHERE order_id = $1 FOR UPDATE`, [order.orderId]);
      const existing = await this.submission(order.orderId, client);
      if (existing) return { existing };
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`relay-sender:${order.sender}`]);
      const pending = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM relay_submissions WHERE sender = $1 AND state = 'pending'`,
        [order.sender],
      );
      if (pending.rows[0]!.n >= maxPendingPerSender) {
        throw new ServiceError(
          ErrorCode.ERROR_CODE_RATE_LIMITED,
          `sender ${order.sender} already has ${pending.rows[0]!.n} relayed orders pending (limit ${maxPendingPerSender}); wait until they are mined`,
        );
      }
      await this.checkStrikes(client, order.sender, limits);
      const relayer = net.wallet.address.toLowerCase();
      const stored = await this.lockNonce(client, net.network, relayer);
      // Raised to the chain's count if behind, brought back (and the gap closed) if ahead of it.
      const reconciled = await reconcileLocked(client, net, relayer, stored, seen);
      const nonce = reconciled.next;
      const raw = await net.wallet.signTransaction({
        type: 2,
        chainId: net.chainId,
        nonce: Number(nonce),
        to: tx.to,
        data: tx.data,
        value: 0n,
        gasLimit: tx.gasLimit,
        maxFeePerGas: tx.maxFee,
        maxPriorityFeePerGas: tx.priority,
      });
      const hash = txHash(raw);
      await client.query(
        `INSERT INTO relay_submissions (order_id, network, sender, signature, relayer, nonce, state) VALUES ($1, $2, $3, $4, $5, $6, 'pending')`,
        [order.orderId, net.network, order.sender, signature.toLowerCase(), relayer, nonce.toString()],
      );
      await client.query(
        `INSERT INTO relay_transactions (tx_hash, order_id, attempt, raw, max_fee_per_gas, max_priority_fee_per_gas, kind) VALUES ($1, $2, 0, $3, $4, $5, 'order')`,
        [hash, order.orderId, raw, tx.maxFee.toString(), tx.priority.toString()],
      );
      await client.query(`UPDATE relayer_nonces SET next_nonce = $3 WHERE network = $1 AND relayer = $2`, [
        net.network,
        relayer,
        (nonce + 1n).toString(),
      ]);
      return { created: { reconciled, stored, hash } };
    });
  }

  /**
   * What bounds the relayer's cost when a sender invalidates its orders after they were accepted
   * (spends its signature nonce, moves its tokens, revokes the approval): each relayed order of the
   * sender that failed on chain (`reverted`: mined reverted, or given up with a paid 0-value
   * cancellation) within the window is a strike; at `senderStrikes` the sender is not relayed for
   * until the window has passed its latest failure (a 429 saying when, and to send the order itself).
   */
  private async checkStrikes(
    client: PoolClient,
    sender: string,
    limits: Pick<RelayOptions, 'senderStrikes' | 'strikeWindowMs'>,
  ): Promise<void> {
    const { rows } = await client.query<{ n: number; latest: Date | null }>(
      `SELECT count(*)::int AS n, max(updated_at) AS latest FROM relay_submissions
        WHERE sender = $1 AND state = 'reverted' AND updated_at > now() - make_interval(secs => $2)`,
      [sender, limits.strikeWindowMs / 1000],
    );
    const { n, latest } = rows[0]!;
    if (n < limits.senderStrikes || latest === null) return;
    const resumes = new Date(latest.getTime() + limits.strikeWindowMs).toISOString();
    throw new ServiceError(
      ErrorCode.ERROR_CODE_RATE_LIMITED,
      `relaying is paused for sender ${sender}: ${n} of its relayed orders failed on chain in the last ${limits.strikeWindowMs / 3_600_000} h (their balance, allowance or signature nonce changed after they were accepted, and the relayer paid the gas); it resumes at ${resumes}. Until then, send the order's transaction (tx of GET /v2/portal) yourself`,
    );
  }

  /**
   * Stores a replacement of `latest` (signed by `sign`, locally) if `latest` is still the newest
   * transaction of a pending submission (checked under the submission's row lock: another worker
   * may have replaced it, or recorded it mined, since it was read). Undefined when it is not.
   */
  async replacement(
    orderId: string,
    latest: TxRow,
    kind: TxRow['kind'],
    fees: { maxFee: bigint; priority: bigint },
    reason: string | undefined,
    sign: () => Promise<string>,
  ): Promise<TxRow | undefined> {
    return this.tx(async (client) => {
      const current = await this.submission(orderId, client, true);
      const txs = await this.transactions(orderId, client);
      if (current?.state !== 'pending' || txs.at(-1)!.tx_hash !== latest.tx_hash) return undefined;
      const raw = await sign();
      const { rows } = await client.query<TxRow>(
        `INSERT INTO relay_transactions (tx_hash, order_id, attempt, raw, max_fee_per_gas, max_priority_fee_per_gas, kind) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [txHash(raw), orderId, latest.attempt + 1, raw, fees.maxFee.toString(), fees.priority.toString(), kind],
      );
      // Shown while the cancellation is pending, and the final reason once it is mined (see relay-receipts.ts).
      if (reason !== undefined)
        await client.query(`UPDATE relay_submissions SET status_reason = $2, updated_at = now() WHERE order_id = $1`, [orderId, reason]);
      return rows[0];
    });
  }

  async markBroadcast(hash: string): Promise<void> {
    await this.pool.query(`UPDATE relay_transactions SET broadcast_at = coalesce(broadcast_at, now()) WHERE tx_hash = $1`, [hash]);
  }

  /** Records the outcome of a still pending submission (a no-op once another worker recorded one). */
  async finish(
    orderId: string,
    r: { state: SubmissionRow['state']; reason?: string; txHash?: string; block?: bigint; gasUsed?: bigint; received?: bigint },
  ): Promise<void> {
    await this.pool.query(
      `UPDATE relay_submissions SET state = $2, status_reason = $3, mined_tx_hash = $4, block_number = $5, gas_used = $6, output_amount = $7, updated_at = now()
       WHERE order_id = $1 AND state = 'pending'`,
      [
        orderId,
        r.state,
        r.reason ?? null,
        r.txHash ?? null,
        r.block?.toString() ?? null,
        r.gasUsed?.toString() ?? null,
        r.received?.toString() ?? null,
      ],
    );
  }

  async openOrders(): Promise<string[]> {
    const { rows } = await this.pool.query<{ order_id: string }>(
      `SELECT order_id FROM relay_submissions WHERE state = 'pending' ORDER BY created_at`,
    );
    return rows.map((r) => r.order_id);
  }
}

const txHash = (raw: string): string => Transaction.from(raw).hash!;
