/**
 * Queues transactions with explicit nonces and mines them into one block at a chosen timestamp.
 * Senders are impersonated (the builder anvil runs with --auto-impersonate), which avoids signing
 * thousands of transactions in JavaScript; receipts are checked so a revert stops the build.
 */
import { type InterfaceAbi, Interface, getCreateAddress } from 'ethers';
import { encodeCall } from './encode';
import { RpcClient, toHex } from './rpc';

export interface TxSpec {
  from: string;
  to?: string;
  data?: string;
  value?: bigint;
  /** explicit, because estimates would run against the last block, not the pending ones */
  gas?: bigint;
  /** shown when the transaction reverts */
  label: string;
}

interface QueuedTx extends TxSpec {
  nonce: number;
}

interface Receipt {
  blockNumber: string;
  status: string;
  transactionHash: string;
  gasUsed: string;
}

export const DEFAULT_CALL_GAS = 1_500_000n;
export const DEFAULT_DEPLOY_GAS = 12_000_000n;

export interface MinedBlock {
  number: number;
  timestamp: number;
  transactions: number;
  gasUsed: bigint;
}

export class ChainWriter {
  private readonly nonces = new Map<string, number>();
  private pending: QueuedTx[] = [];
  transactionCount = 0;
  blockCount = 0;
  lastTimestamp = 0;

  constructor(readonly rpc: RpcClient) {}

  /** The builder only ever writes to a fresh chain, so an unseen sender starts at nonce 0. */
  nextNonce(address: string): number {
    return this.nonces.get(address.toLowerCase()) ?? 0;
  }

  get queued(): number {
    return this.pending.length;
  }

  send(tx: TxSpec): void {
    const key = tx.from.toLowerCase();
    const nonce = this.nonces.get(key) ?? 0;
    this.nonces.set(key, nonce + 1);
    this.pending.push({ ...tx, nonce });
  }

  call(
    from: string,
    to: string,
    iface: Interface,
    fn: string,
    args: readonly unknown[],
    opts: { value?: bigint; gas?: bigint; label?: string } = {},
  ): void {
    this.send({ from, to, data: encodeCall(iface, fn, args), value: opts.value, gas: opts.gas, label: opts.label ?? fn });
  }

  /** Queues a CREATE and returns the address it will have, known from the sender's nonce. */
  deploy(
    from: string,
    artifact: { abi: InterfaceAbi; bytecode: string },
    args: readonly unknown[],
    label: string,
    gas = DEFAULT_DEPLOY_GAS,
  ): string {
    const address = getCreateAddress({ from, nonce: this.nextNonce(from) });
    const iface = new Interface(artifact.abi);
    const data = `${artifact.bytecode}${iface.encodeDeploy(args).slice(2)}`;
    this.send({ from, data, gas, label: `deploy ${label}` });
    return address;
  }

  /** Sends everything queued and mines it as one block with the given timestamp. */
  async mine(timestamp: number): Promise<MinedBlock> {
    const txs = this.pending;
    this.pending = [];
    const sent = await this.rpc.batchSettled<string>(
      txs.map((tx) => ({
        method: 'eth_sendTransaction',
        params: [
          {
            from: tx.from,
            to: tx.to,
            data: tx.data,
            value: tx.value ? toHex(tx.value) : undefined,
            gas: toHex(tx.gas ?? (tx.to ? DEFAULT_CALL_GAS : DEFAULT_DEPLOY_GAS)),
            nonce: toHex(tx.nonce),
          },
        ],
      })),
    );
    const sendErrors = sent.map((s, i) => (s.error ? `${txs[i]?.label}: ${s.error.message}` : undefined)).filter(Boolean);
    if (sendErrors.length > 0)
      throw new Error(`could not submit ${sendErrors.length} transaction(s): ${sendErrors.slice(0, 5).join('; ')}`);

    await this.rpc.call('evm_mine', [timestamp]);
    // anvil mines at exactly the requested timestamp; receipts give the rest.
    const receipts = await this.rpc.call<Receipt[]>('eth_getBlockReceipts', ['latest']);
    const number = receipts[0] ? Number(receipts[0].blockNumber) : Number(await this.rpc.call<string>('eth_blockNumber'));
    if (receipts.length !== txs.length)
      throw new Error(`block ${number} holds ${receipts.length} of ${txs.length} transactions (block gas limit?)`);
    const failed = txs.filter((_, i) => receipts[i]?.status !== '0x1');
    if (failed.length > 0) throw new Error(`reverted in block ${number}: ${await this.describe(failed)}`);
    this.transactionCount += txs.length;
    this.blockCount += 1;
    this.lastTimestamp = timestamp;
    return { number, timestamp, transactions: txs.length, gasUsed: receipts.reduce((sum, r) => sum + BigInt(r.gasUsed), 0n) };
  }

  /** Best-effort reason: replays the call on the post-block state, which usually fails the same way. */
  private async describe(failed: QueuedTx[]): Promise<string> {
    const parts: string[] = [];
    for (const tx of failed.slice(0, 5)) {
      let reason = '';
      try {
        await this.rpc.call('eth_call', [
          {
            from: tx.from,
            to: tx.to,
            data: tx.data,
            value: tx.value ? toHex(tx.value) : undefined,
            gas: toHex(tx.gas ?? DEFAULT_CALL_GAS),
          },
          'latest',
        ]);
        reason = 'succeeds when replayed';
      } catch (err) {
        reason = (err as Error).message;
      }
      parts.push(`${tx.label} from ${tx.from} (${reason})`);
    }
    return `${failed.length} transaction(s): ${parts.join('; ')}`;
  }
}
