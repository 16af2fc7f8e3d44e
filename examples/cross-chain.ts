/**
 * A cross-chain order followed to SUCCESS: USDC on FROM_NETWORK into USDC on TO_NETWORK, with a
 * viem wallet. swap() approves the cross-chain spender (GET /v2/approval with outputToken) and
 * sends the order on the origin network; waitForStatus follows GET /v3/portal/status/stream (SSE,
 * resumed with Last-Event-ID, polling if the stream is refused) until a final status.
 *   node -r ./tools/register.js examples/cross-chain.ts   (env: see examples/env.ts; AMOUNT, default 200 USDC)
 */
import { createPublicClient, createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fromViem, swap, waitForStatus } from '@tokensvc/sdk';
import { bySymbol, client, env, findToken, report, rpcUrl, run } from './env';

run(async () => {
  const from = env('FROM_NETWORK', 'ethereum');
  const to = env('TO_NETWORK', 'base');
  const svc = client();
  const transport = http(rpcUrl(from));
  const account = privateKeyToAccount(env('PRIVATE_KEY') as `0x${string}`);
  const wallet = fromViem(createWalletClient({ account, transport }), createPublicClient({ transport }));
  const input = await findToken(svc, from, bySymbol('USDC'));
  const output = await findToken(svc, to, bySymbol('USDC'));
  const { order, txHash } = await swap(svc, wallet, {
    inputToken: input.key,
    inputAmount: BigInt(env('AMOUNT', '200000000')),
    outputToken: output.key,
    slippageTolerancePercentage: 1,
  });
  const seen: string[] = [];
  const done = await waitForStatus(
    svc,
    { orderId: order.context.orderId, txHash },
    { timeoutMs: 300_000, onUpdate: (r) => seen.push(r.status) },
  );
  if (done.status !== 'SUCCESS') throw new Error(`order ${order.context.orderId} ended ${done.status}: ${done.statusReason ?? ''}`);
  report({
    example: 'cross-chain',
    orderId: order.context.orderId,
    txHash,
    status: done.status,
    seen,
    destinationTxHashes: done.destinationTxHashes,
    wallet: account.address,
    outputToken: output.key,
    minOutputAmount: order.context.minOutputAmount,
  });
});
