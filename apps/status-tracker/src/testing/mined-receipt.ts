import type { JsonRpcProvider, TransactionReceipt } from 'ethers';

/**
 * The receipt of `hash`, polled within `timeoutMs` (not ethers' waitForTransaction / tx.wait(): on
 * an automining anvil that mined the transaction between its first look and its block listener they
 * wait for a next block, and on a quiet chain none comes: a test then hangs until jest's timeout).
 */
export async function minedReceipt(provider: JsonRpcProvider, hash: string, timeoutMs = 60_000): Promise<TransactionReceipt> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await provider.getTransactionReceipt(hash);
    if (receipt) return receipt;
    if (Date.now() > end) throw new Error(`transaction ${hash} not mined within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
