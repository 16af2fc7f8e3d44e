/**
 * A first swap: native ETH into USDC on one network, with an ethers v6 wallet.
 * GET /v2/tokens (paged) finds USDC, then the SDK's swap(): no approval for native input,
 * GET /v2/portal, the order's transaction sent and mined.
 *   node -r ./tools/register.js examples/first-swap.ts   (env: see examples/env.ts; AMOUNT_WEI, default 0.1 ETH)
 */
import { JsonRpcProvider, Wallet } from 'ethers';
import { fromEthers, swap } from '@tokensvc/sdk';
import { bySymbol, client, env, findToken, report, rpcUrl, run } from './env';

run(async () => {
  const network = env('NETWORK', 'ethereum');
  const svc = client();
  // cacheTimeout -1: ethers caches identical calls for 250 ms, so the nonce of a transaction sent right
  // after the approval could be read from before it ("nonce has already been used").
  const provider = new JsonRpcProvider(rpcUrl(network), undefined, { staticNetwork: true, cacheTimeout: -1 });
  const wallet = new Wallet(env('PRIVATE_KEY'), provider);
  const usdc = await findToken(svc, network, bySymbol('USDC'));
  const { order, txHash, receipt } = await swap(svc, fromEthers(wallet), {
    inputToken: `${network}:0x0000000000000000000000000000000000000000`,
    inputAmount: BigInt(env('AMOUNT_WEI', '100000000000000000')),
    outputToken: usdc.key,
    slippageTolerancePercentage: 1,
  });
  report({
    example: 'first-swap',
    orderId: order.context.orderId,
    txHash,
    block: receipt.blockNumber,
    wallet: wallet.address,
    outputToken: usdc.key,
    minOutputAmount: order.context.minOutputAmount,
  });
  provider.destroy();
});
