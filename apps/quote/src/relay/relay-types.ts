/** What the relayer's parts share: its configuration, its dependencies and the rows it keeps. */
import type { Wallet } from 'ethers';
import type { Pool } from 'pg';
import type { JsonRpcClient } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import { ErrorCode } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import type { OrderStore } from './order-store';

export interface RelayNetwork {
  network: Network;
  chainId: number;
  router: string;
  rpc: JsonRpcClient;
  /** the gas wallet (no provider: it only signs) */
  wallet: Wallet;
}

export interface RelayOptions {
  /** a transaction not mined after this long is replaced with a fee bump */
  replaceAfterMs: number;
  /** fee bump of a replacement, percent (at least 10, what nodes require) */
  feeBumpPercent: number;
  /** open (unmined) submissions allowed per sender */
  maxPendingPerSender: number;
  /**
   * strikes: a sender whose relayed orders failed on chain this many times (mined reverted, or
   * given up with a paid 0-value cancellation because they would revert) within `strikeWindowMs`
   * is not relayed for until the window has passed the latest failure
   */
  senderStrikes: number;
  strikeWindowMs: number;
  /** gas limit = estimate * (100 + this) / 100 */
  gasBufferPercent: number;
  /**
   * no order transaction bids a maxFeePerGas above this many times the gas price its relayer fee
   * pays for (fee / gas limit): a bump that would is not sent (see relay-guards.ts)
   */
  maxFeeMultiplier: number;
}

/** Where a test may kill the relayer (SIGKILL) to prove nothing is lost. */
export type RelayFaultPoint = 'after-sign' | 'after-broadcast' | 'after-mined' | 'during-replacement';

export interface RelayDeps {
  pool: Pool;
  store: OrderStore;
  networks: ReadonlyMap<Network, RelayNetwork>;
  /** USD price and decimals of a token (lowercase address, zero address = native), for the gas-fee check */
  token: (network: Network, address: string) => { priceUsd: number; decimals: number } | undefined;
  options: RelayOptions;
  fault?: (point: RelayFaultPoint) => void;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
}

export interface SubmissionRow {
  order_id: string;
  network: string;
  sender: string;
  signature: string;
  relayer: string;
  nonce: string;
  state: 'pending' | 'mined' | 'reverted' | 'expired' | 'dropped';
  status_reason: string | null;
  mined_tx_hash: string | null;
  block_number: string | null;
  gas_used: string | null;
  output_amount: string | null;
}

export interface TxRow {
  tx_hash: string;
  attempt: number;
  raw: string;
  max_fee_per_gas: string;
  max_priority_fee_per_gas: string;
  kind: 'order' | 'cancel';
  created_at: Date;
  broadcast_at: Date | null;
}

export interface Receipt {
  status: string;
  blockNumber: string;
  gasUsed: string;
  transactionHash: string;
  logs: Array<{ address: string; topics: string[]; data: string }>;
}

export const NATIVE = '0x0000000000000000000000000000000000000000';
export const bad = (m: string): ServiceError => new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, m);
export const max = (...v: bigint[]): bigint => v.reduce((a, b) => (a > b ? a : b));
export const min = (...v: bigint[]): bigint => v.reduce((a, b) => (a < b ? a : b));

/** The configured network, or the 503 that tells the caller to send the order itself. */
export function relayNetwork(d: Pick<RelayDeps, 'networks'>, network: Network): RelayNetwork {
  const n = d.networks.get(network);
  if (!n)
    throw new ServiceError(
      ErrorCode.ERROR_CODE_UNAVAILABLE,
      `no relayer wallet is configured for ${network}; send the order's tx yourself`,
    );
  return n;
}
