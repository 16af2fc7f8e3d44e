import type { JsonRpcProvider, TransactionReceipt, TransactionRequest, Wallet } from 'ethers';
import { type DecodedRouterError, decodeRouterError } from '../router';

/** Runs `tx` with eth_call and returns its decoded revert; throws when it does not revert. */
export async function revertOf(provider: JsonRpcProvider, tx: TransactionRequest): Promise<DecodedRouterError> {
  let data: string | undefined;
  try {
    await provider.call(tx);
  } catch (err) {
    data = (err as { data?: string }).data;
    const decoded = data ? decodeRouterError(data) : undefined;
    if (!decoded) throw new Error(`reverted with undecodable data ${data ?? '(none)'}: ${(err as Error).message}`);
    return decoded;
  }
  throw new Error('expected the call to revert, it succeeded');
}

/** Sends `tx` (fixed gas, so nothing is estimated) and returns the receipt, failed or not. */
export async function sendRaw(wallet: Wallet, tx: TransactionRequest): Promise<TransactionReceipt> {
  const sent = await wallet.sendTransaction({ gasLimit: 3_000_000n, ...tx });
  for (let i = 0; i < 500; i++) {
    const receipt = await wallet.provider!.getTransactionReceipt(sent.hash);
    if (receipt) return receipt;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no receipt for ${sent.hash}`);
}

/** Sends `tx` and expects it to succeed. */
export async function send(wallet: Wallet, tx: TransactionRequest): Promise<TransactionReceipt> {
  const receipt = await sendRaw(wallet, tx);
  if (receipt.status !== 1) {
    const reason = await revertOf(wallet.provider as JsonRpcProvider, { ...tx, from: wallet.address }).catch((e: Error) => e.message);
    throw new Error(`transaction reverted: ${JSON.stringify(reason, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
  }
  return receipt;
}
