/**
 * Test helper run as its own process: a relayer that submits one order and tracks it, and kills
 * itself with SIGKILL at a fault point, so tests can prove a crash loses nothing. Argument: JSON
 * of ChildArgs. Prints `final <state>` when it got to the end without being killed.
 */
import { Wallet } from 'ethers';
import { JsonRpcClient } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import { createPgPool } from '@tokensvc/persistence';
import { OrderStore } from '../relay/order-store';
import { Relayer, type RelayFaultPoint } from '../relay/relayer';

export interface ChildArgs {
  databaseUrl: string;
  rpcUrl: string;
  network: Network;
  chainId: number;
  router: string;
  relayerKey: string;
  orderId: string;
  signature: string;
  crashAt: RelayFaultPoint;
  replaceAfterMs: number;
  /** USD price and decimals by lowercase token address (zero address = native) */
  tokens: Record<string, { priceUsd: number; decimals: number }>;
}

async function main(): Promise<void> {
  const a = JSON.parse(process.argv[2]!) as ChildArgs;
  const pool = createPgPool({ connectionString: a.databaseUrl, max: 2 });
  const relayer = new Relayer({
    pool,
    store: new OrderStore(pool),
    networks: new Map([
      [
        a.network,
        { network: a.network, chainId: a.chainId, router: a.router, rpc: new JsonRpcClient(a.rpcUrl), wallet: new Wallet(a.relayerKey) },
      ],
    ]),
    token: (_n, address) => a.tokens[address],
    options: {
      replaceAfterMs: a.replaceAfterMs,
      feeBumpPercent: 15,
      maxPendingPerSender: 100,
      senderStrikes: 1_000,
      strikeWindowMs: 3_600_000,
      gasBufferPercent: 20,
      maxFeeMultiplier: 3,
    },
    fault: (point) => {
      if (point === a.crashAt) process.kill(process.pid, 'SIGKILL');
    },
  });
  await relayer.submit(a.orderId, a.signature);
  const deadline = Date.now() + 60_000;
  while (!(await relayer.advance(a.orderId))) {
    if (Date.now() > deadline) throw new Error('still pending after 60 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  const status = await relayer.status(a.orderId);
  process.stdout.write(`final ${status.relay?.status}\n`);
  await pool.end();
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
