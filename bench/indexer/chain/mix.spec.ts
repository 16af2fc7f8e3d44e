import fc from 'fast-check';
import { EVENTS_PER, planChain, pumpMix } from './mix';

describe('pumpMix', () => {
  it('emits exactly the requested events, ~40/40/20 transfers/swaps/flows', () => {
    const m = pumpMix(500);
    expect(m).toEqual({ transfers: 201, swaps: 50, flows: 33, events: 500 });
    fc.assert(
      fc.property(fc.integer({ min: 10, max: 100_000 }), (n) => {
        const mix = pumpMix(n);
        expect(mix.transfers * EVENTS_PER.transfer + mix.swaps * EVENTS_PER.swap + mix.flows * EVENTS_PER.flow).toBe(n);
        expect(mix.transfers).toBeGreaterThanOrEqual(Math.floor(n * 0.4));
      }),
    );
  });

  it('rejects sizes too small to mix', () => {
    expect(() => pumpMix(5)).toThrow();
    expect(() => pumpMix(10.5)).toThrow();
  });
});

describe('planChain', () => {
  it('rounds up to whole blocks', () => {
    expect(planChain(1_000_000, 500, 4)).toMatchObject({ blocks: 500, events: 1_000_000 });
    expect(planChain(100_001, 500, 4)).toMatchObject({ blocks: 51, events: 102_000 });
    expect(planChain(1, 500, 4)).toMatchObject({ blocks: 1, events: 2000 });
  });
});
