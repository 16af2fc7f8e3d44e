import {
  CROSS_CHAIN_PERMIT_MESSAGE,
  SAME_CHAIN_RECIPIENT_MESSAGE,
  crossChainPermitProblem,
  sameChainRecipientProblem,
  distinctTokensProblem,
  feeProblem,
  isCrossChain,
  partnerFeeOf,
  slippageProblem,
} from './order-request';

const ETH_USDC = 'ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const ETH_NATIVE = 'ethereum:0x0000000000000000000000000000000000000000';
const BASE_USDC = 'base:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';

describe('order-request rules (one definition for the gateway and the quote service)', () => {
  it('slippage is 0.1 to 10 percent', () => {
    expect(slippageProblem(0.1)).toBeUndefined();
    expect(slippageProblem(10)).toBeUndefined();
    expect(slippageProblem(0.05)).toBe('slippageTolerancePercentage must be between 0.1 and 10 (percent), got 0.05');
    expect(slippageProblem(Number.NaN)).toMatch(/must be between 0.1 and 10/);
  });

  it('a fee is 0 to 1 percent and needs a partner; with a partner and no fee the default 0.3 applies, in whole basis points', () => {
    expect(feeProblem(undefined, undefined)).toBeUndefined();
    expect(feeProblem(undefined, 0)).toBeUndefined();
    expect(feeProblem(undefined, 0.5)).toBe('feePercentage needs a partner: pass the partner address that receives the fee');
    expect(feeProblem('0x1', 1.5)).toBe('feePercentage must be between 0 and 1 (percent), got 1.5');
    expect(partnerFeeOf(undefined, undefined)).toEqual({ percentage: 0, bps: 0 });
    expect(partnerFeeOf('0x1', undefined)).toEqual({ percentage: 0.3, bps: 30 });
    expect(partnerFeeOf('0x1', 0.123)).toEqual({ percentage: 0.12, bps: 12 });
  });

  it('tokens must differ; a pair on two networks is cross-chain, where permits are refused', () => {
    expect(distinctTokensProblem(ETH_USDC, ETH_USDC)).toBe('inputToken and outputToken must differ');
    expect(distinctTokensProblem(ETH_USDC, ETH_NATIVE)).toBeUndefined();
    expect(isCrossChain(ETH_USDC, BASE_USDC)).toBe(true);
    expect(isCrossChain(ETH_USDC, ETH_NATIVE)).toBe(false);
    expect(crossChainPermitProblem(ETH_USDC, BASE_USDC, true)).toBe(CROSS_CHAIN_PERMIT_MESSAGE);
    expect(crossChainPermitProblem(ETH_USDC, BASE_USDC, false)).toBeUndefined();
    expect(crossChainPermitProblem(ETH_USDC, ETH_NATIVE, true)).toBeUndefined();
    expect(sameChainRecipientProblem(ETH_USDC, ETH_NATIVE, true)).toBe(SAME_CHAIN_RECIPIENT_MESSAGE);
    expect(sameChainRecipientProblem(ETH_USDC, BASE_USDC, true)).toBeUndefined();
    expect(sameChainRecipientProblem(ETH_USDC, ETH_NATIVE, false)).toBeUndefined();
  });
});
