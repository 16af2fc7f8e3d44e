import { type Artifact, linkBytecode, requiredLibraries, with0x } from './artifact';

const PLACEHOLDER = `__$${'ab'.repeat(17)}$__`;

function artifact(bytecode: string, refs: Artifact['linkReferences']): Artifact {
  return { contractName: 'Thing', abi: [], bytecode, deployedBytecode: '0x', linkReferences: refs };
}

describe('linkBytecode', () => {
  // 2 bytes of code, a 20-byte placeholder at offset 2, then another at offset 24.
  const code = `0x6001${PLACEHOLDER}60ff${PLACEHOLDER}`;
  const refs = { 'contracts/Lib.sol': { LibA: [{ start: 2, length: 20 }] }, 'contracts/Other.sol': { LibB: [{ start: 24, length: 20 }] } };
  const a = '0x' + '11'.repeat(20);
  const b = '0x' + 'Cc'.repeat(20);

  it('replaces placeholders at the referenced offsets', () => {
    expect(linkBytecode(artifact(code, refs), { LibA: a, LibB: b })).toBe(`0x6001${'11'.repeat(20)}60ff${'cc'.repeat(20)}`);
  });

  it('lists the libraries an artifact needs', () => {
    expect(requiredLibraries(artifact(code, refs))).toEqual(['LibA', 'LibB']);
    expect(requiredLibraries(artifact('0x00', {}))).toEqual([]);
  });

  it('refuses missing or malformed library addresses', () => {
    expect(() => linkBytecode(artifact(code, refs), { LibA: a })).toThrow(/LibB/);
    expect(() => linkBytecode(artifact(code, refs), { LibA: a, LibB: '0x1234' })).toThrow(/invalid address/);
  });

  it('adds a 0x prefix only when missing', () => {
    expect(with0x('abcd')).toBe('0xabcd');
    expect(with0x('0xabcd')).toBe('0xabcd');
  });
});
