import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Interface, type InterfaceAbi, ZeroAddress, getAddress } from 'ethers';
import {
  ACROSS_DEPOSIT_INPUT_AMOUNT_OFFSET,
  ACROSS_SPOKE_POOL_FRAGMENTS,
  acrossSpokePoolInterface,
  fromBytes32,
  toBytes32,
} from './across-abi';
import {
  ACROSS_MULTICALL_HANDLER_FRAGMENTS,
  acrossMulticallHandlerInterface,
  decodeAcrossMulticallMessage,
  encodeAcrossMulticallMessage,
} from './multicall-message';

const PACKAGE = '@across-protocol/contracts';

/** The package's directory: from its resolved entry point (not loaded) up to the package.json naming it. */
function packageDir(): string {
  let dir = dirname(require.resolve(PACKAGE));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json of ${PACKAGE} above ${require.resolve(PACKAGE)}`);
    dir = up;
  }
}

describe("the Across SpokePool fragments match the package's artifact", () => {
  const artifact = JSON.parse(readFileSync(join(packageDir(), 'dist', 'evm', 'artifacts', 'SpokePool.sol', 'SpokePool.json'), 'utf8')) as {
    abi: InterfaceAbi;
  };
  const reference = new Interface(artifact.abi);
  const ours = acrossSpokePoolInterface();

  it('reads version 5.x of the package', () => {
    const { version } = JSON.parse(readFileSync(join(packageDir(), 'package.json'), 'utf8')) as { version: string };
    expect(version).toMatch(/^5\./);
  });

  it.each(ACROSS_SPOKE_POOL_FRAGMENTS.map((f) => [f.slice(0, 60)]))('%s…', (prefix) => {
    const fragment = ACROSS_SPOKE_POOL_FRAGMENTS.find((f) => f.startsWith(prefix))!;
    const [kind, rest] = [fragment.split(' ')[0], fragment.slice(fragment.indexOf(' ') + 1)];
    const name = rest!.slice(0, rest!.indexOf('('));
    if (kind === 'event') {
      const mine = ours.getEvent(name)!;
      const theirs = reference.getEvent(name);
      expect(theirs).not.toBeNull();
      expect(mine.topicHash).toBe(theirs!.topicHash);
      expect(mine.inputs.map((i) => [i.name, i.indexed === true])).toEqual(theirs!.inputs.map((i) => [i.name, i.indexed === true]));
    } else {
      const mine = ours.getFunction(name)!;
      // The artifact may overload a name (deposit has a deprecated address variant): match by selector.
      const theirs = reference.getFunction(mine.selector);
      expect(theirs).not.toBeNull();
      expect(theirs!.name).toBe(name);
      expect(mine.outputs.map((o) => o.type)).toEqual(theirs!.outputs.map((o) => o.type));
      expect(mine.stateMutability).toBe(theirs!.stateMutability);
    }
  });

  it('puts the inputAmount word at ACROSS_DEPOSIT_INPUT_AMOUNT_OFFSET of deposit calldata', () => {
    const a = toBytes32('0x1111111111111111111111111111111111111111');
    const data = ours.encodeFunctionData('deposit', [a, a, a, a, 123_456_789n, 1n, 8453, toBytes32(ZeroAddress), 1, 2, 0, '0x']);
    const word = data.slice(2 + ACROSS_DEPOSIT_INPUT_AMOUNT_OFFSET * 2, 2 + (ACROSS_DEPOSIT_INPUT_AMOUNT_OFFSET + 32) * 2);
    expect(BigInt(`0x${word}`)).toBe(123_456_789n);
    expect(reference.decodeFunctionData('deposit', data)[4]).toBe(123_456_789n);
  });

  it('converts addresses to and from bytes32', () => {
    const address = getAddress('0x00000000000000000000000000000000deadbeef');
    expect(toBytes32(address)).toBe(`0x${'0'.repeat(56)}deadbeef`);
    expect(fromBytes32(toBytes32(address))).toBe(address);
  });
});

describe("the Across MulticallHandler fragments and message match the package's artifact", () => {
  const artifact = JSON.parse(
    readFileSync(join(packageDir(), 'dist', 'evm', 'artifacts', 'MulticallHandler.sol', 'MulticallHandler.json'), 'utf8'),
  ) as { abi: InterfaceAbi };
  const reference = new Interface(artifact.abi);
  const ours = acrossMulticallHandlerInterface();
  const HANDLER = getAddress('0x00000000000000000000000000000000000000aa');
  const TOKEN = getAddress('0x00000000000000000000000000000000000000bb');
  const ROUTER = getAddress('0x00000000000000000000000000000000000000cc');
  const USER = getAddress('0x00000000000000000000000000000000000000dd');

  it.each(ACROSS_MULTICALL_HANDLER_FRAGMENTS.map((f) => [f.slice(9, f.indexOf('('))]))('%s has the artifact selector', (name) => {
    expect(reference.getFunction(ours.getFunction(name)!.selector)?.name).toBe(name);
  });

  it('encodes Instructions as the handler decodes them: approve the balance, the call with the balance at its offset, the leftover to the user, no fallback recipient', () => {
    const routerCall = `0x12345678${'0'.repeat(64)}${'0'.repeat(64)}`;
    const message = encodeAcrossMulticallMessage(HANDLER, TOKEN, {
      calls: [{ target: ROUTER, data: routerCall, value: 0n, approveBalance: true, balanceOffset: 36 }],
      leftoverRecipient: USER,
    });
    const { calls, fallbackRecipient } = decodeAcrossMulticallMessage(message);
    expect(fallbackRecipient).toBe(ZeroAddress);
    expect(calls.map((c) => [c.target, reference.parseTransaction({ data: c.callData })!.name])).toEqual([
      [HANDLER, 'makeCallWithBalance'],
      [HANDLER, 'makeCallWithBalance'],
      [HANDLER, 'drainLeftoverTokens'],
    ]);
    const approve = reference.decodeFunctionData('makeCallWithBalance', calls[0]!.callData);
    expect([approve[0], approve[3].map((r: { token: string; offset: bigint }) => [r.token, r.offset])]).toEqual([TOKEN, [[TOKEN, 36n]]]);
    expect(new Interface(['function approve(address,uint256)']).decodeFunctionData('approve', approve[1] as string)).toEqual([ROUTER, 0n]);
    const call = reference.decodeFunctionData('makeCallWithBalance', calls[1]!.callData);
    expect([call[0], call[1], call[3].map((r: { token: string; offset: bigint }) => [r.token, r.offset])]).toEqual([
      ROUTER,
      routerCall,
      [[TOKEN, 36n]],
    ]);
    expect([...reference.decodeFunctionData('drainLeftoverTokens', calls[2]!.callData)]).toEqual([TOKEN, USER]);
  });

  it('refuses a call whose amount word is not zero (the handler ORs its balance into it)', () => {
    const data = `0x12345678${'0'.repeat(63)}1`;
    expect(() =>
      encodeAcrossMulticallMessage(HANDLER, TOKEN, {
        calls: [{ target: ROUTER, data, value: 0n, balanceOffset: 4 }],
        leftoverRecipient: USER,
      }),
    ).toThrow(/must be zero/);
  });
});
