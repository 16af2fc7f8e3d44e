/**
 * `npm run router -- <command> --network <name>`: the order Router on a real network.
 *
 *   address --network <name>   the Router address (the same on every network) and this network's
 *                              code hash, and whether it is deployed there
 *   deploy  --network <name>   deploys it through the deterministic deployment proxy (CREATE2) unless
 *                              it is there already, and verifies the deployed code
 *
 * Reads RPC_URL_<NET> (the node) and, for deploy, DEPLOYER_PRIVATE_KEY (any funded account: the
 * address does not depend on it; never printed). Nothing chain-specific goes into the Router's
 * init code (no WETH), so its address is one for every network; the network only selects the node
 * and the chain id the deployed code is verified for. Prints the `ROUTER_ADDRESS_<NET>=...` line
 * the quote service needs. The logic is `deployRouterDeterministic` in @tokensvc/contracts.
 */
import { parseArgs } from 'node:util';
import { JsonRpcProvider, Network as EthersNetwork, Wallet } from 'ethers';
import { ConfigError, EnvReader, type Env, rpcVar } from '@tokensvc/config';
import { RouterDeployError, type RouterDeploymentPlan, deployRouterDeterministic, inspectRouterDeployment } from '@tokensvc/contracts';
import { NETWORKS, type Network, isNetwork } from '@tokensvc/domain';

export const USAGE =
  'usage: npm run router -- address --network <name> | deploy --network <name>   (env: RPC_URL_<NET>, DEPLOYER_PRIVATE_KEY for deploy)';

/** A mistake of the caller: printed without a stack, with the usage. */
export class UsageError extends Error {}

interface Settings {
  command: 'address' | 'deploy';
  network: Network;
  rpcUrl: string;
  deployerKey?: string;
}

function readSettings(argv: readonly string[], env: Env): Settings {
  const { positionals, values } = parseArgs({ args: [...argv], allowPositionals: true, options: { network: { type: 'string' } } });
  const [command, ...extra] = positionals;
  if (command !== 'address' && command !== 'deploy') throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const network = values.network;
  if (network === undefined) throw new UsageError('--network is required');
  if (!isNetwork(network)) throw new UsageError(`unknown network "${network}"; accepted: ${NETWORKS.join(', ')}`);
  const r = new EnvReader(env);
  const rpcUrl = r.url(rpcVar(network), '', ['http:', 'https:', 'ws:', 'wss:']);
  let deployerKey: string | undefined;
  if (command === 'deploy') {
    deployerKey = r.string('DEPLOYER_PRIVATE_KEY');
    // never echo the value: it is a secret
    if (deployerKey !== '' && !/^(0x)?[0-9a-fA-F]{64}$/.test(deployerKey))
      r.problems.push('DEPLOYER_PRIVATE_KEY must be 64 hex characters (optionally 0x-prefixed)');
  }
  r.done();
  return { command, network, rpcUrl, deployerKey };
}

function describe(plan: RouterDeploymentPlan, print: (line: string) => void): void {
  print(`network:        ${plan.network} (chain id ${plan.chainId})`);
  print(`router:         ${plan.router}`);
  print(`executor:       ${plan.executor}`);
  print(`salt:           ${plan.salt}`);
  print(`init code hash: ${plan.initCodeHash}`);
  print(`code hash:      ${plan.routerCodeHash}`);
}

/**
 * The node's chain id, asked once with a timeout (ethers' provider would retry an unreachable URL
 * forever). Only the host is ever printed: RPC URLs often carry an API key in their path.
 */
async function probeChainId(network: Network, rpcUrl: string): Promise<number> {
  const where = `${rpcVar(network)} (${new URL(rpcUrl).host})`;
  let body: { result?: string; error?: { message?: string } };
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(15_000),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    body = (await res.json()) as typeof body;
  } catch (e) {
    throw new RouterDeployError(`cannot reach ${where}: ${(e as Error).message}`);
  }
  if (typeof body.result !== 'string')
    throw new RouterDeployError(`${where} did not answer eth_chainId: ${body.error?.message ?? 'no result'}`);
  return Number(BigInt(body.result));
}

/** Runs one command; returns the plan (for tests). Errors are thrown, not printed. */
export async function runRouterCommand(argv: readonly string[], env: Env, print: (line: string) => void): Promise<RouterDeploymentPlan> {
  const s = readSettings(argv, env);
  const chainId = await probeChainId(s.network, s.rpcUrl);
  // A static network: the chain id is checked against the network's by the library, once.
  const provider = new JsonRpcProvider(s.rpcUrl, EthersNetwork.from(chainId), { staticNetwork: true, cacheTimeout: -1 });
  try {
    const envLine = (plan: RouterDeploymentPlan): string => `ROUTER_ADDRESS_${s.network.toUpperCase()}=${plan.router.toLowerCase()}`;
    if (s.command === 'address') {
      const { plan, state } = await inspectRouterDeployment(provider, s.network);
      describe(plan, print);
      print(
        state === 'verified'
          ? 'status:         deployed, code hash verified'
          : `status:         not deployed yet (npm run router -- deploy --network ${s.network})`,
      );
      print(envLine(plan));
      return plan;
    }
    const wallet = new Wallet(s.deployerKey!.startsWith('0x') ? s.deployerKey! : `0x${s.deployerKey!}`, provider);
    const result = await deployRouterDeterministic(wallet, s.network);
    describe(result.plan, print);
    print(
      result.status === 'deployed'
        ? `status:         deployed in ${result.txHash}, code hash verified`
        : 'status:         already deployed, code hash verified',
    );
    print(envLine(result.plan));
    return result.plan;
  } finally {
    provider.destroy();
  }
}

if (require.main === module) {
  runRouterCommand(process.argv.slice(2), process.env, (line) => void process.stdout.write(`${line}\n`)).catch((e: unknown) => {
    const err = e as Error & { code?: string };
    const known =
      e instanceof UsageError || e instanceof ConfigError || e instanceof RouterDeployError || err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION';
    process.stderr.write(
      `router: ${err.message}\n${e instanceof UsageError || err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? `${USAGE}\n` : ''}`,
    );
    if (!known && err.stack) process.stderr.write(`${err.stack}\n`);
    process.exit(1);
  });
}
