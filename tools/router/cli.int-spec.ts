import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { JsonRpcProvider, keccak256 } from 'ethers';
import { ConfigError } from '@tokensvc/config';
import { RouterDeployError, planRouterDeployment, routerAddress } from '@tokensvc/contracts';
import { type AnvilProcess, startAnvil } from '@tokensvc/devnet';
import { freePortRange } from '@tokensvc/testing';
import { UsageError, runRouterCommand } from './cli';

const DEPLOYER_KEY = 'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ROOT = join(__dirname, '..', '..');

describe('npm run router -- address|deploy --network base (on an anvil with base chain id)', () => {
  let anvil: AnvilProcess;
  let provider: JsonRpcProvider;
  let env: Record<string, string>;

  beforeAll(async () => {
    anvil = await startAnvil({ host: '127.0.0.1', port: await freePortRange(1), chainId: 8453 });
    provider = new JsonRpcProvider(anvil.rpcUrl, 8453, { staticNetwork: true, cacheTimeout: -1 });
    env = { RPC_URL_BASE: anvil.rpcUrl, DEPLOYER_PRIVATE_KEY: DEPLOYER_KEY };
  }, 60_000);
  afterAll(async () => {
    provider?.destroy();
    await anvil?.stop();
  });

  const run = async (argv: string[], e: Record<string, string> = env): Promise<string[]> => {
    const lines: string[] = [];
    await runRouterCommand(argv, e, (l) => lines.push(l));
    return lines;
  };
  const failure = (argv: string[], e: Record<string, string> = env): Promise<Error> =>
    runRouterCommand(argv, e, () => undefined).then(
      () => {
        throw new Error('expected a refusal');
      },
      (err: Error) => err,
    );

  it('address predicts, deploy deploys and verifies, a second deploy says already deployed; the key is never printed', async () => {
    const plan = planRouterDeployment('base');
    expect(plan.router).toBe(routerAddress());
    const before = await run(['address', '--network', 'base']);
    expect(before).toContain(`router:         ${plan.router}`);
    expect(before).toContain('status:         not deployed yet (npm run router -- deploy --network base)');

    const deployed = await run(['deploy', '--network', 'base']);
    expect(deployed).toContain(`code hash:      ${plan.routerCodeHash}`);
    expect(deployed.find((l) => l.startsWith('status:'))).toMatch(/^status: +deployed in 0x[0-9a-f]{64}, code hash verified$/);
    expect(deployed[deployed.length - 1]).toBe(`ROUTER_ADDRESS_BASE=${plan.router.toLowerCase()}`);
    expect(keccak256(await provider.getCode(plan.router))).toBe(plan.routerCodeHash);

    const again = await run(['deploy', '--network', 'base']);
    expect(again).toContain('status:         already deployed, code hash verified');
    expect(await run(['address', '--network', 'base'])).toContain('status:         deployed, code hash verified');
    for (const line of [...before, ...deployed, ...again]) expect(line).not.toContain(DEPLOYER_KEY);
  });

  it('refuses bad usage and configuration with what to fix', async () => {
    expect(await failure(['deploy'])).toEqual(new UsageError('--network is required'));
    expect((await failure(['deploy', '--network', 'mars'])).message).toMatch(/^unknown network "mars"; accepted: ethereum, /);
    expect((await failure(['launch', '--network', 'base'])).message).toBe('unknown command "launch"');
    // flare: the shipped registry names no wrapped native token there (docs/registry.md), which the
    // Router no longer needs (no constructor argument): only the missing key is refused
    const missing = await failure(['deploy', '--network', 'flare'], { RPC_URL_FLARE: anvil.rpcUrl });
    expect(missing).toBeInstanceOf(ConfigError);
    expect(missing.message).toContain('DEPLOYER_PRIVATE_KEY is required');
    expect(missing.message).not.toContain('WRAPPED_NATIVE');
    const badKey = await failure(['deploy', '--network', 'base'], { ...env, DEPLOYER_PRIVATE_KEY: 'secret-ish-but-wrong' });
    expect(badKey.message).toContain('DEPLOYER_PRIVATE_KEY must be 64 hex characters');
    expect(badKey.message).not.toContain('secret-ish-but-wrong');
    // address needs no key
    expect((await run(['address', '--network', 'base'], { RPC_URL_BASE: anvil.rpcUrl })).length).toBeGreaterThan(0);
    // the chain's WETH is no input any more: WRAPPED_NATIVE_BASE (any value) changes nothing, the one address is printed
    const lines = await run(['address', '--network', 'base'], { RPC_URL_BASE: anvil.rpcUrl, WRAPPED_NATIVE_BASE: `0x${'12'.repeat(20)}` });
    expect(lines).toContain(`router:         ${routerAddress()}`);
    expect(lines.join('\n')).not.toMatch(/weth/i);
  });

  it('refuses a node of another chain, and an RPC URL nobody answers, without printing its path', async () => {
    const wrong = await failure(['deploy', '--network', 'ethereum'], {
      RPC_URL_ETHEREUM: anvil.rpcUrl,
      DEPLOYER_PRIVATE_KEY: DEPLOYER_KEY,
    });
    expect(wrong).toBeInstanceOf(RouterDeployError);
    expect(wrong.message).toBe('the RPC URL for ethereum serves chain id 8453, but ethereum is chain id 1: check RPC_URL_ETHEREUM');
    const down = await failure(['address', '--network', 'base'], { RPC_URL_BASE: 'http://127.0.0.1:25999/v2/SECRETKEY' });
    expect(down.message).toMatch(/^cannot reach RPC_URL_BASE \(127\.0\.0\.1:25999\): /);
    expect(down.message).not.toContain('SECRETKEY');
  });

  it('runs as the npm script: exit code 1 and the reason on stderr', async () => {
    const result = await promisify(execFile)(
      process.execPath,
      ['-r', './tools/register.js', 'tools/router/cli.ts', 'address', '--network', 'base'],
      {
        cwd: ROOT,
        env: { PATH: process.env['PATH'] ?? '', ...env },
      },
    );
    expect(result.stdout).toContain('status:         deployed, code hash verified');
    const failed = await promisify(execFile)(process.execPath, ['-r', './tools/register.js', 'tools/router/cli.ts', 'deploy'], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '' },
    }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain(
      'router: --network is required\nusage: npm run router -- address --network <name> | deploy --network <name>',
    );
  });
});
