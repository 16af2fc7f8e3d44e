import fc from 'fast-check';
import { decodeCursor, encodeCursor } from './cursor';

describe('activity cursor', () => {
  it('round-trips every position', () => {
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 45 }), fc.nat({ max: 2 ** 40 }), fc.nat({ max: 100_000 }), (timeMs, block, logIndex) => {
        expect(decodeCursor(encodeCursor({ timeMs, block, logIndex }))).toEqual({ timeMs, block, logIndex });
      }),
    );
  });

  it('rejects what it did not issue', () => {
    for (const bad of [
      '',
      'abc',
      '!!!',
      Buffer.from('v1:1:2').toString('base64url'),
      Buffer.from("v1:1:2:3' OR 1=1").toString('base64url'),
      'x'.repeat(300),
    ]) {
      expect(decodeCursor(bad)).toBeUndefined();
    }
  });
});
