/** A cross-chain order made through the gateway and sent by a test wallet, for the console's order page test. */
import type { Wallet } from 'ethers';
import Redis from 'ioredis';
import { JsonRpcClient } from '@tokensvc/chain';

interface UnsignedTx {
  to: string;
  data: string;
  value?: string;
  gasLimit?: string;
}

async function ok<T>(gateway: string, path: string, key: string): Promise<T> {
  const res = await fetch(`${gateway}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(30_000) });
  const body = (await res.json().catch(() => undefined)) as unknown;
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(body)}`);
  return body as T;
}

/** Sends a transaction as the API returned it; resolves with its hash once mined successfully. */
async function send(wallet: Wallet, rpcUrl: string, tx: UnsignedTx): Promise<string> {
  const sent = await wallet.sendTransaction({
    to: tx.to,
    data: tx.data,
    value: BigInt(tx.value ?? '0'),
    gasLimit: tx.gasLimit === undefined ? undefined : BigInt(tx.gasLimit),
  });
  const rpc = new JsonRpcClient(rpcUrl);
  const until = Date.now() + 60_000;
  for (;;) {
    const receipt = await rpc.call<{ status: string } | null>('eth_getTransactionReceipt', [sent.hash]);
    if (receipt) {
      if (Number(receipt.status) !== 1) throw new Error(`transaction ${sent.hash} reverted`);
      return sent.hash;
    }
    if (Date.now() > until) throw new Error(`transaction ${sent.hash} not mined within 60 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** GET /v2/approval (the approval sent when asked), GET /v2/portal, then the order's tx sent as it is. */
export async function sendAsIs(
  gateway: string,
  key: string,
  wallet: Wallet,
  rpcUrl: string,
  inputToken: string,
  amount: bigint,
  outputToken: string,
): Promise<{ orderId: string; txHash: string }> {
  const params = `sender=${wallet.address.toLowerCase()}&inputToken=${inputToken}&inputAmount=${amount}&outputToken=${outputToken}`;
  const approval = await ok<{ context: { shouldApprove: boolean }; approve: UnsignedTx }>(gateway, `/v2/approval?${params}`, key);
  if (approval.context.shouldApprove) await send(wallet, rpcUrl, approval.approve);
  const order = await ok<{ context: { orderId: string }; tx: UnsignedTx }>(
    gateway,
    `/v2/portal?${params}&slippageTolerancePercentage=1`,
    key,
  );
  return { orderId: order.context.orderId, txHash: await send(wallet, rpcUrl, order.tx) };
}

/** The file's BullMQ keys (tracker, webhooks, relay) in the shared Redis. */
export async function cleanQueueKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 500 }))
      if ((keys as string[]).length) await redis.del(...(keys as string[]));
  } finally {
    redis.disconnect();
  }
}
