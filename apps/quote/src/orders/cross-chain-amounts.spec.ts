import {
  combinedImpact,
  crossChainSlippage,
  minBridgedAmount,
  minFinalOutput,
  percentOfInput,
  pickRoute,
  routeCostPercent,
} from './cross-chain-amounts';

describe('cross-chain amount maths', () => {
  it('slippage: none without swaps (the bridge is exact), else the requested one or auto over the price impact', () => {
    expect(crossChainSlippage(1, { origin: false, destination: false }, 3)).toBe(0);
    expect(crossChainSlippage(1, { origin: true, destination: false }, 3)).toBe(1);
    expect(crossChainSlippage(undefined, { origin: false, destination: true }, 0)).toBe(0.5);
    expect(crossChainSlippage(undefined, { origin: true, destination: true }, 2)).toBe(1); // 0.5 + 2/4
    expect(crossChainSlippage(undefined, { origin: true, destination: true }, undefined)).toBe(0.5);
  });

  it('price impact of two legs compounds', () => {
    expect(combinedImpact(undefined, undefined)).toBeUndefined();
    expect(combinedImpact(1, undefined)).toBeCloseTo(1, 12);
    expect(combinedImpact(undefined, 2)).toBeCloseTo(2, 12);
    expect(combinedImpact(10, 10)).toBeCloseTo(19, 12); // 1 - 0.9 * 0.9
  });

  it('one tolerance over both legs: the Router checks the origin at it, the deposit asks for the final output less it', () => {
    // Origin swap expected to bridge 1,000 USDC; 1 % slippage -> at least 990 reach the bridge.
    expect(minBridgedAmount(1_000_000_000n, 1, true)).toBe(990_000_000n);
    // Without an origin swap everything offered (less the partner fee) is deposited: exact.
    expect(minBridgedAmount(1_000_000_000n, 1, false)).toBe(1_000_000_000n);
    // Destination swap expected to deliver 0.5 WETH-worth of vault shares -> the deposit asks for 99 % of it.
    expect(minFinalOutput(500_000_000_000_000_000n, 1, true, 123n)).toBe(495_000_000_000_000_000n);
    // No destination swap: the filler pays all that arrives, so the minimum is what the bridge makes of the origin minimum.
    expect(minFinalOutput(999_500_000n, 1, false, 989_505_000n)).toBe(989_505_000n);
    // Rounded down (the Router and the filler compare >=), tolerance in ppm of a percent.
    expect(minFinalOutput(999n, 0.15, true, 0n)).toBe(997n);
  });

  it('route cost: the share of what is spent (net of the partner fee and the bridge cut) that does not arrive', () => {
    // $1000 spent, $0.5 bridge fee, $994.5 received -> 5 / 999.5
    expect(routeCostPercent({ spentUsd: 1000, bridgeFeeUsd: 0.5, receivedUsd: 994.5 })).toBeCloseTo((5 / 999.5) * 100, 10);
    // Residuals that come back to the sender are not a cost.
    expect(routeCostPercent({ spentUsd: 1000, bridgeFeeUsd: 0, receivedUsd: 990, returnedUsd: 10 })).toBeCloseTo(0, 10);
    // Receiving more than spent (prices between networks differ) is no negative cost.
    expect(routeCostPercent({ spentUsd: 100, bridgeFeeUsd: 0, receivedUsd: 101 })).toBe(0);
    expect(routeCostPercent({ spentUsd: 0, bridgeFeeUsd: 0, receivedUsd: 1 })).toBeUndefined();
    expect(routeCostPercent({ spentUsd: 10, bridgeFeeUsd: 0, receivedUsd: 0 })).toBeUndefined();
    expect(percentOfInput(0.5, 1000)).toBeCloseTo(0.05, 12);
    expect(percentOfInput(0.5, 0)).toBe(0);
  });

  it('picks the way through the bridge that delivers most, then the one with fewer swaps', () => {
    const a = { name: 'USDC', expectedOutput: 100n, swaps: 1 };
    const b = { name: 'WETH', expectedOutput: 101n, swaps: 2 };
    const c = { name: 'DAI', expectedOutput: 101n, swaps: 1 };
    expect(pickRoute([a, b]).name).toBe('WETH');
    expect(pickRoute([a, b, c]).name).toBe('DAI');
    expect(pickRoute([a]).name).toBe('USDC');
    expect(() => pickRoute([])).toThrow();
  });
});
