import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Interface, type InterfaceAbi, ZeroAddress, getAddress } from 'ethers';
import { ACROSS_DEPOSIT_INPUT_AMOUNT_OFFSET, ACROSS_SPOKE_POOL_FRAGMENTS, acrossSpokePoolInterface, fromBytes32, toBytes32 } from './across-abi';

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
  const artifact = JSON.parse(readFileSync(join(packageDir(), 'dist', 'evm', 'artifacts', 'SpokePool.sol', 'SpokePool.json'), 'utf8')) as { abi: InterfaceAbi };
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
