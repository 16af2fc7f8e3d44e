import { JsonRpcClient, toQuantity, type PlatformDefinition } from '@tokensvc/chain';
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import { ADAPTERS } from '../adapters';

/**
 * What the indexer checks of each network's scope before it writes anything (before it connects
 * to Postgres): the RPC URLs serve the network's chain, the start block is not in the future, the
 * scope has something to index, and every contract the configuration names has code on chain.
 * A failure stops the process with one message per problem, each saying what to change.
 */
export interface ScopeToCheck {
  network: Network;
  rpcUrls: readonly string[];
  /** an explicit first block (START_BLOCK_<NETWORK> or the manifest's), if any */
  startBlock?: number;
  /** START_DAYS_<NETWORK>: start this many days before the head (resolved here) */
  startDays?: number;
  listedTokens: readonly string[];
  platforms: readonly PlatformDefinition[];
}

export interface CheckedScope {
  network: Network;
  /** the first block to index: the explicit one, else the block `startDays` before the head, else 0 */
  startBlock: number;
}

export class ScopeError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`the indexing scope cannot be used (nothing was written):\n- ${problems.join('\n- ')}`);
  }
}

const envName = (network: Network, what: string): string => `${what}_${network.toUpperCase()}`;

/** Hides credentials and API keys in URLs shown in messages (keys often sit in the path). */
export function redactUrl(url: string): string {
  if (!URL.canParse(url)) return '<unparsable URL>';
  const u = new URL(url);
  const path = u.pathname.length > 12 ? `${u.pathname.slice(0, 4)}…` : u.pathname;
  return `${u.protocol}//${u.host}${path === '/' ? '' : path}`;
}

/**
 * Checks every network's scope (in parallel); throws a ScopeError listing every problem found.
 * `client` builds the JSON-RPC client for one URL (tests pass their own).
 */
export async function preflightScopes(
  scopes: readonly ScopeToCheck[],
  client: (url: string) => JsonRpcClient = (url) => new JsonRpcClient(url, { timeoutMs: 15_000 }),
): Promise<CheckedScope[]> {
  const results = await Promise.all(scopes.map((s) => checkScope(s, client)));
  const problems = results.flatMap((r) => r.problems);
  if (problems.length > 0) throw new ScopeError(problems);
  return results.map((r) => r.checked);
}

async function checkScope(s: ScopeToCheck, client: (url: string) => JsonRpcClient): Promise<{ checked: CheckedScope; problems: string[] }> {
  const problems: string[] = [];
  const want = NETWORK_INFO[s.network].chainId;
  const clients = s.rpcUrls.map(client);
  const heads: number[] = [];
  await Promise.all(
    clients.map(async (c, i) => {
      const shown = redactUrl(s.rpcUrls[i]!);
      try {
        const got = Number(await c.call<string>('eth_chainId'));
        if (got !== want)
          problems.push(
            `${s.network}: the RPC URL ${shown} serves chain id ${got}, not ${want} (${NETWORK_INFO[s.network].name}); fix ${envName(s.network, 'RPC_URL')}`,
          );
        else heads.push(parseInt(await c.call<string>('eth_blockNumber'), 16));
      } catch (e) {
        problems.push(
          `${s.network}: the RPC URL ${shown} does not answer (${(e as Error).message}); check ${envName(s.network, 'RPC_URL')}`,
        );
      }
    }),
  );
  const checked: CheckedScope = { network: s.network, startBlock: s.startBlock ?? 0 };
  if (problems.length > 0 || heads.length === 0) return { checked, problems };
  const head = Math.min(...heads);
  const rpc = clients[0]!;

  if (s.startBlock !== undefined && s.startBlock > head) {
    problems.push(
      `${s.network}: the start block ${s.startBlock} is after the chain's head (${head}); set ${envName(s.network, 'START_BLOCK')} to ${head} or below, or use ${envName(s.network, 'START_DAYS')}`,
    );
  } else if (s.startBlock === undefined && s.startDays !== undefined) {
    checked.startBlock = await blockAtTime(rpc, head, Math.floor(Date.now() / 1000) - s.startDays * 86_400);
  }

  const contracts = s.platforms.flatMap((p) =>
    ADAPTERS[p.family].staticContracts(p).map((c) => ({ what: `${p.slug} ${roleOf(p, c.address)}`, address: c.address })),
  );
  if (s.listedTokens.length === 0 && contracts.length === 0) {
    problems.push(
      `${s.network}: the scope has no tokens and no protocol contracts, so there is nothing to index; set REGISTRY=shipped (the shipped address book) or list tokens in the registry file, or remove ${s.network} from NETWORKS`,
    );
    return { checked, problems };
  }
  const named = [...contracts, ...s.listedTokens.map((address) => ({ what: 'listed token', address }))];
  // At 'latest', not at `head`: code does not disappear, and a node may keep no state for a block
  // that was the head a moment ago (anvil loaded from a saved state has none for the loaded block
  // once a new one lands; a pruned node likewise for old ones).
  const codes = await rpc.batch<string>(named.map((n) => ({ method: 'eth_getCode', params: [n.address, 'latest'] })));
  named.forEach((n, i) => {
    if (codes[i] === '0x' || codes[i] === '' || codes[i] === undefined) {
      problems.push(
        `${s.network}: the ${n.what} ${n.address} has no code at block ${head} on chain ${want}; the registry entry is wrong for this network, or the RPC node is not synced`,
      );
    }
  });
  return { checked, problems };
}

function roleOf(p: PlatformDefinition, address: string): string {
  return Object.entries(p.addresses).find(([, a]) => a === address)?.[0] ?? 'contract';
}

/** The first block at or after `timestamp` (binary search over headers: ~log2(head) calls). */
export async function blockAtTime(rpc: JsonRpcClient, head: number, timestamp: number): Promise<number> {
  const time = async (n: number): Promise<number> =>
    parseInt((await rpc.call<{ timestamp: string }>('eth_getBlockByNumber', [toQuantity(n), false])).timestamp, 16);
  if ((await time(0)) >= timestamp) return 0;
  if ((await time(head)) < timestamp) return head;
  let lo = 0;
  let hi = head;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await time(mid)) < timestamp) lo = mid;
    else hi = mid;
  }
  return hi;
}
