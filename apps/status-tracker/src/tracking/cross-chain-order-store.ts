/**
 * The `cross_chain_orders` rows (one per order id and origin transaction) and the stored quotes of
 * `orders` (written by the quote service, kept a week). Plain SQL over a pg Pool. Terminal states
 * are written with `WHERE terminal_at IS NULL`, so whichever worker gets there first writes it and
 * every later attempt (a second worker after a lock takeover, a replay) changes nothing.
 */
import type { Pool } from 'pg';
import type { Network } from '@tokensvc/domain';
import type { CrossChainStatus, SeenDeposit, TerminalStatus } from './transition';

export interface CrossChainOrder {
  orderId: string;
  txHash: string;
  status: CrossChainStatus;
  statusReason: string | undefined;
  provider: string;
  requestId: string | undefined;
  fromNetwork: Network;
  fromChainId: number;
  toNetwork: Network | undefined;
  toChainId: number | undefined;
  originTxHashes: string[];
  destinationTxHashes: string[];
  depositBlock: number | undefined;
  fillDeadline: number | undefined;
  createdAt: Date;
  updatedAt: Date;
  terminalAt: Date | undefined;
}

interface Row {
  order_id: string;
  tx_hash: string;
  status: CrossChainStatus;
  status_reason: string | null;
  provider: string;
  request_id: string | null;
  from_network: string;
  from_chain_id: string;
  to_network: string | null;
  to_chain_id: string | null;
  origin_tx_hashes: string[];
  destination_tx_hashes: string[];
  deposit_block: string | null;
  fill_deadline: string | null;
  created_at: Date;
  updated_at: Date;
  terminal_at: Date | null;
}

const num = (v: string | null): number | undefined => (v === null ? undefined : Number(v));

function fromRow(r: Row): CrossChainOrder {
  return {
    orderId: r.order_id,
    txHash: r.tx_hash,
    status: r.status,
    statusReason: r.status_reason ?? undefined,
    provider: r.provider,
    requestId: r.request_id ?? undefined,
    fromNetwork: r.from_network as Network,
    fromChainId: Number(r.from_chain_id),
    toNetwork: (r.to_network ?? undefined) as Network | undefined,
    toChainId: num(r.to_chain_id),
    originTxHashes: r.origin_tx_hashes,
    destinationTxHashes: r.destination_tx_hashes,
    depositBlock: num(r.deposit_block),
    fillDeadline: num(r.fill_deadline),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    terminalAt: r.terminal_at ?? undefined,
  };
}

export interface NewCrossChainOrder {
  orderId: string;
  txHash: string;
  provider: string;
  fromNetwork: Network;
  fromChainId: number;
  toNetwork: Network | undefined;
  toChainId: number | undefined;
}

/** The quote of `GET /v2/portal` while it is kept (context and tx as stored, proto3 JSON). */
export interface StoredQuote {
  network: Network;
  chainId: number;
  context: unknown;
  tx: unknown;
}

export class CrossChainOrderStore {
  constructor(private readonly pool: Pool) {}

  /** Creates the PENDING row unless it exists; returns the row either way. */
  async create(o: NewCrossChainOrder): Promise<CrossChainOrder> {
    await this.pool.query(
      `INSERT INTO cross_chain_orders (order_id, tx_hash, status, provider, from_network, from_chain_id, to_network, to_chain_id, origin_tx_hashes)
       VALUES ($1, $2, 'PENDING', $3, $4, $5, $6, $7, $8)
       ON CONFLICT (order_id, tx_hash) DO NOTHING`,
      [o.orderId, o.txHash, o.provider, o.fromNetwork, o.fromChainId, o.toNetwork ?? null, o.toChainId ?? null, [o.txHash]],
    );
    const row = await this.get(o.orderId, o.txHash);
    if (!row) throw new Error(`cross-chain order ${o.orderId}/${o.txHash} vanished after its insert`);
    return row;
  }

  async get(orderId: string, txHash: string): Promise<CrossChainOrder | undefined> {
    const { rows } = await this.pool.query<Row>(`SELECT * FROM cross_chain_orders WHERE order_id = $1 AND tx_hash = $2`, [orderId, txHash]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  /** PENDING -> ONGOING with what the deposit says; false when the row had moved on already. */
  async markOngoing(orderId: string, txHash: string, d: SeenDeposit): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE cross_chain_orders
          SET status = 'ONGOING', request_id = $3, to_network = COALESCE($4, to_network), to_chain_id = $5, deposit_block = $6, fill_deadline = $7, updated_at = now()
        WHERE order_id = $1 AND tx_hash = $2 AND status = 'PENDING' AND terminal_at IS NULL`,
      [orderId, txHash, d.requestId, d.destinationNetwork ?? null, d.destinationChainId, d.blockNumber, d.fillDeadline],
    );
    return (r.rowCount ?? 0) === 1;
  }

  /** Writes the terminal state once; true only for the call that wrote it. */
  async finish(orderId: string, txHash: string, status: TerminalStatus, statusReason: string | undefined, destinationTxHashes: readonly string[]): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE cross_chain_orders
          SET status = $3, status_reason = $4, destination_tx_hashes = $5, terminal_at = now(), updated_at = now()
        WHERE order_id = $1 AND tx_hash = $2 AND terminal_at IS NULL`,
      [orderId, txHash, status, statusReason ?? null, destinationTxHashes],
    );
    return (r.rowCount ?? 0) === 1;
  }

  /** Every order not yet terminal (the queue is re-filled from these). */
  async open(limit = 100_000): Promise<Array<{ orderId: string; txHash: string }>> {
    const { rows } = await this.pool.query<{ order_id: string; tx_hash: string }>(`SELECT order_id, tx_hash FROM cross_chain_orders WHERE terminal_at IS NULL ORDER BY created_at LIMIT $1`, [limit]);
    return rows.map((r) => ({ orderId: r.order_id, txHash: r.tx_hash }));
  }

  /** The stored quote, or undefined when it was never stored or is past its week. */
  async quote(orderId: string): Promise<StoredQuote | undefined> {
    const { rows } = await this.pool.query<{ network: string; chain_id: number; context: unknown; tx: unknown }>(
      `SELECT network, chain_id, context, tx FROM orders WHERE order_id = $1 AND keep_until > now()`,
      [orderId],
    );
    const r = rows[0];
    return r ? { network: r.network as Network, chainId: r.chain_id, context: r.context, tx: r.tx } : undefined;
  }
}
