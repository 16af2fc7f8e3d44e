/**
 * Queues transactions of one unlocked anvil account with explicit nonces and gas (no estimates:
 * they would run against the last block and cost a second execution) and mines them as one block.
 */
import { Interface, getCreateAddress, type InterfaceAbi } from 'ethers';
import { type BenchRpc, hex } from './rpc';

interface Receipt {
  status: string;
  transactionHash: string;
}

export class BlockWriter {
  private nonce = 0;
  private queue: Array<{ to?: string; data: string; gas: bigint; label: string }> = [];

  constructor(
    readonly rpc: BenchRpc,
    readonly from: string,
  ) {}

  /** Resumes from the chain (a loaded state continues where the generator left off). */
  async syncNonce(): Promise<void> {
    this.nonce = Number(await this.rpc.call<string>('eth_getTransactionCount', [this.from, 'latest']));
  }

  call(to: string, iface: Interface, fn: string, args: readonly unknown[], gas: bigint, label = fn): void {
    this.queue.push({ to, data: iface.encodeFunctionData(fn, args), gas, label });
  }

  deploy(artifact: { abi: InterfaceAbi; bytecode: string }, args: readonly unknown[], label: string, gas = 8_000_000n): string {
    const address = getCreateAddress({ from: this.from, nonce: this.nonce + this.queue.length });
    this.queue.push({
      data: `${artifact.bytecode}${new Interface(artifact.abi).encodeDeploy(args).slice(2)}`,
      gas,
      label: `deploy ${label}`,
    });
    return address;
  }

  /**
   * Sends the queue and mines it into one block, at `timestamp` or (undefined) anvil's clock;
   * with `check`, every receipt must be a success. A chain loaded from a saved state refuses
   * explicit timestamps older than the wall clock at load, so follow-up blocks use anvil's clock.
   */
  async mine(timestamp: number | undefined, check = true): Promise<number> {
    const txs = this.queue;
    this.queue = [];
    const hashes = await this.rpc.batch<string>(
      txs.map((t, i) => ({
        method: 'eth_sendTransaction',
        params: [{ from: this.from, ...(t.to ? { to: t.to } : {}), data: t.data, gas: hex(t.gas), nonce: hex(this.nonce + i) }],
      })),
    );
    this.nonce += txs.length;
    await this.rpc.call('evm_mine', timestamp === undefined ? [] : [timestamp]);
    if (check) {
      const receipts = await this.rpc.batch<Receipt | null>(hashes.map((h) => ({ method: 'eth_getTransactionReceipt', params: [h] })));
      receipts.forEach((r, i) => {
        if (r?.status !== '0x1') throw new Error(`${txs[i]!.label} ${r ? 'reverted' : 'was not mined'}`);
      });
    }
    return this.rpc.blockNumber();
  }
}
