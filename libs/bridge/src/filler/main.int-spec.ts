import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Interface, JsonRpcProvider, MaxUint256, Wallet, parseEther, toBeHex } from 'ethers';
import { rpcVar } from '@tokensvc/config';
import { bridgeEscrowInterface, sendOk } from '@tokensvc/contracts';
import type { Network } from '@tokensvc/domain';
import { eachLine, testDevnet } from '@tokensvc/testing';
import { type BridgeManifestLike, devnetBridgeConfig, devnetFillerKey } from '../devnet-config';
import { DevnetBridgeProvider } from '../devnet-provider';

const ROOT = join(__dirname, '..', '..', '..', '..');
const WETH = new Interface(['function deposit() payable', 'function approve(address,uint256) returns (bool)', 'function balanceOf(address) view returns (uint256)']);

describe('the filler process (filler/main.ts) on the test devnet', () => {
  const { rpcUrls, manifestPath } = testDevnet();
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as BridgeManifestLike;
  const provider = new DevnetBridgeProvider({ config: devnetBridgeConfig(manifest), rpcUrls });
  const chains = new Map<Network, JsonRpcProvider>();
  const chain = (n: Network): JsonRpcProvider => {
    let p = chains.get(n);
    if (!p) {
      p = new JsonRpcProvider(rpcUrls[n], undefined, { staticNetwork: true, cacheTimeout: -1 });
      p.pollingInterval = 50;
      chains.set(n, p);
    }
    return p;
  };
  let child: ChildProcess | undefined;

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await new Promise((r) => child!.once('exit', r));
    }
    for (const p of chains.values()) p.destroy();
  });

  it('every devnet network has the bridge, and its escrow names the manifest filler as attester', async () => {
    const iface = bridgeEscrowInterface();
    const filler = new Wallet(devnetFillerKey(manifest)).address;
    expect(provider.networks.map((n) => n.network).sort()).toEqual(Object.keys(rpcUrls).sort());
    for (const n of provider.networks) {
      const attester = iface.decodeFunctionResult('attester', await chain(n.network).call({ to: n.escrow, data: iface.encodeFunctionData('attester') }))[0] as string;
      expect([n.network, attester]).toEqual([n.network, filler]);
      expect(n.tokens.map((t) => t.symbol)).toEqual(['WETH', 'USDC', 'ETH']);
    }
  });

  it('fills native ETH ethereum -> base and WETH base -> arbitrum from its inventory, settles both, and stops on SIGTERM', async () => {
    const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], DEVNET_MANIFEST: manifestPath, NETWORKS: Object.keys(rpcUrls).join(','), FILLER_POLL_MS: '200', LOG_LEVEL: 'info' };
    for (const [n, url] of Object.entries(rpcUrls)) env[rpcVar(n as Network)] = url;
    child = spawn(process.execPath, ['-r', join(ROOT, 'tools', 'register.js'), join(ROOT, 'libs', 'bridge', 'src', 'filler', 'main.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: Array<Record<string, unknown>> = [];
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    eachLine(child, (line) => {
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        lines.push({ msg: line });
      }
    });
    const waitFor = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000) => {
      const started = Date.now();
      while (!(await check())) {
        if (Date.now() - started > timeoutMs || child!.exitCode !== null) throw new Error(`no ${what}; filler output:\n${lines.map((l) => JSON.stringify(l)).join('\n')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await waitFor('start line', () => lines.some((l) => l['msg'] === 'filler started'));
    expect(lines.find((l) => l['msg'] === 'filler started')).toMatchObject({ level: 'info', service: 'filler', mode: 'normal' });

    // A fresh user, so nothing else on the shared devnet is touched: ETH from anvil, WETH by wrapping it.
    const user = new Wallet(Wallet.createRandom().privateKey);
    for (const n of ['ethereum', 'base'] as const) await chain(n).send('anvil_setBalance', [user.address, toBeHex(parseEther('10'))]);
    const deposit = async (from: Network, to: Network, symbol: 'ETH' | 'WETH', amount: bigint) => {
      const wallet = new Wallet(user.privateKey, chain(from));
      const token = provider.route(from, to)!.tokens.find((t) => t.symbol === symbol)!;
      const quote = await provider.quote({ originNetwork: from, destinationNetwork: to, inputToken: token.originToken, inputAmount: amount, outputToken: token.destinationToken });
      const call = provider.depositCall({ quote, depositor: user.address, recipient: Wallet.createRandom().address, refundTo: user.address });
      if (call.approvalToken) {
        await sendOk(wallet, { to: call.approvalToken, data: WETH.encodeFunctionData('deposit'), value: amount });
        await sendOk(wallet, { to: call.approvalToken, data: WETH.encodeFunctionData('approve', [call.to, MaxUint256]) });
      }
      const receipt = await sendOk(wallet, { to: call.to, data: call.data, value: call.value });
      const [info] = await provider.findDeposit(from, receipt.hash);
      return info!;
    };
    const native = await deposit('ethereum', 'base', 'ETH', parseEther('1'));
    const weth = await deposit('base', 'arbitrum', 'WETH', parseEther('0.5'));

    await waitFor('both settlements', async () => (await provider.depositState('ethereum', native.requestId)) === 'settled' && (await provider.depositState('base', weth.requestId)) === 'settled');
    expect(await chain('base').getBalance(native.recipient)).toBe(native.outputAmount);
    const wethOnArbitrum = provider.route('base', 'arbitrum')!.tokens.find((t) => t.symbol === 'WETH')!.destinationToken;
    const received = WETH.decodeFunctionResult('balanceOf', await chain('arbitrum').call({ to: wethOnArbitrum, data: WETH.encodeFunctionData('balanceOf', [weth.recipient]) }))[0] as bigint;
    expect(received).toBe(weth.outputAmount);
    // The chain can show the settlement a moment before the process's log line arrives.
    const settledLines = () => lines.filter((l) => l['msg'] === 'settled').map((l) => l['requestId']);
    await waitFor('settled log lines', () => settledLines().includes(native.requestId) && settledLines().includes(weth.requestId), 5_000);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(lines.at(-1)).toMatchObject({ msg: 'filler stopped' });
    expect(lines.filter((l) => l['level'] === 'error')).toEqual([]);
  });
});
