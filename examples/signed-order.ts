/**
 * A signed order: USDC into WETH without paying gas. The SDK approves the router when needed,
 * signs the order's EIP-712 typed data with an ethers wallet and POSTs it; the service's relayer
 * sends it. waitForStatus follows it until the relayer reports it mined (or reverted, expired).
 *   node -r ./tools/register.js examples/signed-order.ts   (env: see examples/env.ts; AMOUNT, default 50 USDC; SLIPPAGE, default 5 percent)
 */
import { JsonRpcProvider, Wallet } from 'ethers';
import { fromEthers, submitSignedOrder, waitForStatus } from '@tokensvc/sdk';
import { bySymbol, client, env, findToken, report, rpcUrl, run } from './env';

run(async () => {
  const network = env('NETWORK', 'ethereum');
  const svc = client();
  // cacheTimeout -1: ethers caches identical calls for 250 ms, so the nonce of a transaction sent right
  // after the approval could be read from before it ("nonce has already been used").
  const provider = new JsonRpcProvider(rpcUrl(network), undefined, { staticNetwork: true, cacheTimeout: -1 });
  const wallet = new Wallet(env('PRIVATE_KEY'), provider);
  const usdc = await findToken(svc, network, bySymbol('USDC'));
  const weth = await findToken(svc, network, bySymbol('WETH'));
  const { order, submitted } = await submitSignedOrder(svc, fromEthers(wallet), {
    inputToken: usdc.key,
    inputAmount: BigInt(env('AMOUNT', '50000000')),
    outputToken: weth.key,
    slippageTolerancePercentage: Number(env('SLIPPAGE', '5')),
  });
  const done = await waitForStatus(svc, { orderId: order.context.orderId }, { pollMs: 500, timeoutMs: 120_000 });
  if (done.status !== 'mined') throw new Error(`order ${order.context.orderId} ended ${done.status}: ${done.statusReason ?? ''}`);
  report({
    example: 'signed-order',
    orderId: order.context.orderId,
    submittedStatus: submitted.status,
    status: done.status,
    txHash: done.txHash,
    receivedAmount: done.receivedAmount,
    wallet: wallet.address,
    outputToken: weth.key,
  });
  provider.destroy();
});
