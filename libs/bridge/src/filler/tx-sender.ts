/**
 * Sends the filler's transactions on one network: signs locally with explicit nonce, gas limit
 * and EIP-1559 fees (nothing estimated, so a transaction meant to revert is still mined and
 * recorded), and waits for receipts. Nonces are counted locally so several fills can be in
 * flight at once; the count is re-read from the chain after any failed submission.
 */
import { Wallet } from 'ethers';
import { RpcTransportError, type JsonRpcClient } from '@tokensvc/chain';
import type { RawReceipt } from '../chain';

export interface TxRequest {
  to: string;
  data: string;
  value?: bigint;
  gasLimit: bigint;
}

export interface SentTx {
  hash: string;
  nonce: number;
}

export class TxSender {
  private nonce: number | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private fees: { at: number; maxFee: bigint; priority: bigint } | undefined;

  constructor(
    readonly rpc: JsonRpcClient,
    private readonly wallet: Wallet,
    readonly chainId: number,
    private readonly receiptPollMs = 100,
  ) {}

  get address(): string {
    return this.wallet.address;
  }

  /** Signs and submits; resolves once the node accepted the transaction. */
  send(tx: TxRequest): Promise<SentTx> {
    // One submission at a time per network: the local nonce must advance in submission order.
    const run = this.queue.then(() => this.submit(tx));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Polls for the receipt (the devnet mines at once; real chains take a few blocks). */
  async wait(hash: string, timeoutMs = 120_000): Promise<RawReceipt> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const receipt = await this.rpc.call<RawReceipt | null>('eth_getTransactionReceipt', [hash]);
      if (receipt) return receipt;
      if (Date.now() > deadline) throw new Error(`no receipt for ${hash} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, this.receiptPollMs));
    }
  }

  private async submit(tx: TxRequest): Promise<SentTx> {
    this.nonce ??= await this.chainNonce();
    const fees = await this.currentFees();
    const nonce = this.nonce;
    const raw = await this.wallet.signTransaction({ type: 2, chainId: this.chainId, nonce, to: tx.to, data: tx.data, value: tx.value ?? 0n, gasLimit: tx.gasLimit, maxFeePerGas: fees.maxFee, maxPriorityFeePerGas: fees.priority });
    try {
      // Retry only when the request may not have arrived; a refusal is final for this nonce.
      const hash = await this.rpc.call<string>('eth_sendRawTransaction', [raw], { retryIf: (e) => e instanceof RpcTransportError });
      this.nonce = nonce + 1;
      return { hash, nonce };
    } catch (e) {
      // Whatever happened, the chain knows the next nonce better than our count now.
      this.nonce = undefined;
      throw e;
    }
  }

  private async chainNonce(): Promise<number> {
    return parseInt(await this.rpc.call<string>('eth_getTransactionCount', [this.wallet.address, 'pending']), 16);
  }

  /** EIP-1559 fees like the relayer's: tip 1 gwei (or the node's), cap 2x base fee + tip; cached for 2 s. */
  private async currentFees(): Promise<{ maxFee: bigint; priority: bigint }> {
    if (this.fees && Date.now() - this.fees.at < 2_000) return this.fees;
    const [block, tipHex] = await Promise.all([
      this.rpc.call<{ baseFeePerGas?: string }>('eth_getBlockByNumber', ['latest', false]),
      this.rpc.call<string>('eth_maxPriorityFeePerGas').catch(() => '0x3b9aca00'),
    ]);
    const base = BigInt(block.baseFeePerGas ?? '0x0');
    const priority = BigInt(tipHex) > 0n ? BigInt(tipHex) : 1_000_000_000n;
    this.fees = { at: Date.now(), maxFee: base * 2n + priority, priority };
    return this.fees;
  }
}
