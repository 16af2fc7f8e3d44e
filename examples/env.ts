/**
 * What every example reads from the environment, and the SDK client and wallets it builds.
 *   TOKENSVC_URL       the gateway (default http://localhost:3000)
 *   TOKENSVC_API_KEY   an API key (npm start prints one); data endpoints need it
 *   PRIVATE_KEY        the wallet's key (npm start prints funded devnet accounts)
 *   NETWORK            the network of a same-chain example (default ethereum)
 *   FROM_NETWORK, TO_NETWORK  the networks of the cross-chain example (default ethereum, base)
 *   RPC_URL_<NETWORK>  a JSON-RPC URL per network the wallet sends on (npm start prints them)
 */
import { createTokensvc, tokens, type ListTokensQuery, type Token, type Tokensvc } from '@tokensvc/sdk';

export function env(name: string, fallback?: string): string {
  const v = process.env[name] ?? fallback;
  if (v === undefined || v === '') throw new Error(`set ${name} (see the comment at the top of examples/env.ts)`);
  return v;
}

export const rpcUrl = (network: string): string => env(`RPC_URL_${network.toUpperCase()}`);

/** The client every example uses: API key from the environment, 429s retried as the service says. */
export function client(): Tokensvc {
  return createTokensvc({
    baseUrl: env('TOKENSVC_URL', 'http://localhost:3000'),
    apiKey: process.env['TOKENSVC_API_KEY'],
    retry: { maxRetries: 3 },
  });
}

/** The first token matching `match` on `network`, found by paging GET /v2/tokens. */
export async function findToken(
  svc: Tokensvc,
  network: string,
  match: (t: Token) => boolean,
  query: { platforms?: string[] } = {},
): Promise<Token> {
  for await (const t of tokens(svc, { networks: [network] as ListTokensQuery['networks'], ...query }, { pageSize: 100 }))
    if (match(t)) return t;
  throw new Error(`no matching token on ${network}`);
}

export const bySymbol =
  (symbol: string) =>
  (t: Token): boolean =>
    t.symbol === symbol;

/** An example's result: one JSON line on stdout (what it did, for a person or a script), exit code 0. */
export function report(result: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(result, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
}

/** Runs an example's main: an error is printed with its code (TokensvcError) and the process exits 1. */
export function run(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      const err = e as Error & { code?: string; status?: number };
      process.stderr.write(`${err.name}${err.status ? ` ${err.status}` : ''}${err.code ? ` (${err.code})` : ''}: ${err.message}\n`);
      process.exit(1);
    },
  );
}
