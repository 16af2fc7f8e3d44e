import { rewriteAddress } from './place';

describe('rewriteAddress', () => {
  const scratch = '0x505d59ffFd312983Cc0eD114d7F117B91520d742';
  const real = '0x33128a8fC17869897dcE68Ed026d694621f6FDfD';
  const strip = (a: string): string => a.toLowerCase().slice(2);

  it('replaces every byte-aligned occurrence (a PUSH32 immutable holding address(this)) and counts them', () => {
    const code = `0x6080${'7f'}${'00'.repeat(12)}${strip(scratch)}5b${'73'}${strip(scratch)}00`;
    const out = rewriteAddress(code, scratch, real);
    expect(out.count).toBe(2);
    expect(out.code).toBe(`0x6080${'7f'}${'00'.repeat(12)}${strip(real)}5b${'73'}${strip(real)}00`);
  });

  it('leaves a match at an odd nibble offset (not an address in the code) alone', () => {
    const code = `0x0${strip(scratch)}0`;
    expect(rewriteAddress(code, scratch, real)).toEqual({ code, count: 0 });
  });
});
