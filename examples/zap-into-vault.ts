/**
 * A zap into a vault: USDC into the shares of an ERC-4626 vault whose underlying is USDC, with a
 * viem wallet client. The SDK's swap() approves the spender GET /v2/approval names (when the
 * allowance is short), then sends the order GET /v2/portal builds.
 *   node -r ./tools/register.js examples/zap-into-vault.ts   (env: see examples/env.ts; AMOUNT, default 100 USDC;
 *   VAULT_PLATFORM, default erc4626-vaults)
 */
import { createPublicClient, createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fromViem, swap } from '@tokensvc/sdk';
import { bySymbol, client, env, findToken, report, rpcUrl, run } from './env';

run(async () => {
  const network = env('NETWORK', 'ethereum');
  const svc = client();
  const transport = http(rpcUrl(network));
  const account = privateKeyToAccount(env('PRIVATE_KEY') as `0x${string}`);
  const wallet = createWalletClient({ account, transport });
  const publicClient = createPublicClient({ transport });
  const usdc = await findToken(svc, network, bySymbol('USDC'));
  const vault = await findToken(svc, network, (t) => t.tokens.some((a) => a.toLowerCase().endsWith(usdc.address.toLowerCase())), {
    platforms: [env('VAULT_PLATFORM', 'erc4626-vaults')],
  });
  const { order, txHash, approvalTxHash } = await swap(svc, fromViem(wallet, publicClient), {
    inputToken: usdc.key,
    inputAmount: BigInt(env('AMOUNT', '100000000')),
    outputToken: vault.key,
    slippageTolerancePercentage: 1,
  });
  report({
    example: 'zap-into-vault',
    orderId: order.context.orderId,
    txHash,
    approvalTxHash,
    wallet: account.address,
    vault: vault.key,
    vaultSymbol: vault.symbol,
    minOutputAmount: order.context.minOutputAmount,
  });
});
