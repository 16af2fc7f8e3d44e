/** What `npm run devnet -- up` prints and does the same for every profile. */
import { TEST_ACCOUNTS } from '@tokensvc/devnet';

export function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/** The start options every profile reads from the command line (`--port` is the profile's to default). */
export function commonStartOptions(args: string[]): { stateDir: string | undefined; fresh: boolean; log: (line: string) => void } {
  return {
    stateDir: option(args, '--state-dir'),
    fresh: args.includes('--fresh'),
    log: (line) => process.stdout.write(`[devnet] ${line}\n`),
  };
}

/** Lists the test accounts, then keeps the chains running until Ctrl-C (SIGINT) or SIGTERM stops them. */
export function serveUntilStopped(handle: { stop(): Promise<void> }): void {
  process.stdout.write('  test accounts (10,000 ETH and a token starter balance each):\n');
  for (const a of TEST_ACCOUNTS) process.stdout.write(`    ${a.address}  ${a.privateKey}\n`);
  process.stdout.write('Ctrl-C stops the chains.\n');
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    handle.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
