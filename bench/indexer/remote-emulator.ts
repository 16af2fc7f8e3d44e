/**
 * The hosted-provider emulator as a child process of the indexer bench (`--remote`), so its work
 * (a 10,000-log reply is ~6.5 MB of text to pass through and scan) is not charged to whichever
 * contender runs in the bench process. Options come in RPC_EMULATOR_OPTIONS (JSON); over the IPC
 * channel it sends `{ url }` once listening and answers 'stats' with its counters.
 */
import { startRpcEmulator, type RpcEmulatorOptions } from '@tokensvc/testing';

async function main(): Promise<void> {
  const options = JSON.parse(process.env['RPC_EMULATOR_OPTIONS'] ?? '') as RpcEmulatorOptions;
  const emulator = await startRpcEmulator(options);
  process.on('message', (m) => {
    if (m === 'stats') process.send?.({ stats: { ...emulator.stats } });
  });
  process.on('disconnect', () => {
    void emulator.close().then(() => process.exit(0));
  });
  process.send?.({ url: emulator.url });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
