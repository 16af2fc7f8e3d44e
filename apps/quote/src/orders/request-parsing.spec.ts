import {
  parseAddress,
  parsePair,
  parsePartnerFee,
  parsePermitDeadline,
  parsePositiveAmount,
  parseSlippage,
  parseUint256,
} from './request-parsing';
import { autoSlippage, bufferedGas, driftPercent, minOutput } from './slippage';

const ZERO = '0x0000000000000000000000000000000000000000';
const PARTNER = '0x000000000000000000000000000000000000BEEF';

describe('request parsing', () => {
  it('fee rules: a fee needs a partner, a partner alone gets the 0.3 % default, bps are whole', () => {
    expect(parsePartnerFee(undefined, undefined)).toEqual({ partner: ZERO, percentage: 0, bps: 0 });
    expect(parsePartnerFee(undefined, 0)).toEqual({ partner: ZERO, percentage: 0, bps: 0 });
    expect(() => parsePartnerFee(undefined, 0.3)).toThrow(/needs a partner/);
    expect(parsePartnerFee(PARTNER, undefined)).toEqual({ partner: PARTNER.toLowerCase(), percentage: 0.3, bps: 30 });
    expect(parsePartnerFee(PARTNER, 1)).toMatchObject({ bps: 100 });
    expect(parsePartnerFee(PARTNER, 0.125)).toMatchObject({ bps: 13, percentage: 0.13 });
    expect(() => parsePartnerFee(PARTNER, 1.5)).toThrow(/between 0 and 1/);
    expect(() => parsePartnerFee(ZERO, 0.3)).toThrow(/zero address/);
  });

  it('token pairs: same network, different tokens', () => {
    expect(parsePair('ETHEREUM:0xAB00000000000000000000000000000000000001', 'ethereum:0x0000000000000000000000000000000000000000')).toEqual(
      {
        network: 'ethereum',
        input: '0xab00000000000000000000000000000000000001',
        output: ZERO,
      },
    );
    expect(() => parsePair(`ethereum:${ZERO}`, `base:${ZERO}`)).toThrow(/cross-chain/);
    expect(() => parsePair(`ethereum:${ZERO}`, `ethereum:${ZERO}`)).toThrow(/must differ/);
    expect(() => parsePair('ethereum:0x12', `ethereum:${ZERO}`)).toThrow(/inputToken: invalid token key/);
  });

  it('amounts, addresses, slippage and uint256 values', () => {
    expect(parsePositiveAmount('42', 'inputAmount')).toBe(42n);
    expect(() => parsePositiveAmount('0', 'inputAmount')).toThrow(/greater than zero/);
    expect(() => parsePositiveAmount('-1', 'inputAmount')).toThrow(/base units/);
    expect(() => parseAddress(ZERO, 'sender', { allowZero: false })).toThrow(/zero address/);
    expect(parseSlippage(undefined)).toBeUndefined();
    expect(parseSlippage(0.1)).toBe(0.1);
    expect(() => parseSlippage(0.05)).toThrow(/between 0.1 and 10/);
    expect(parseUint256(undefined, 'permitDeadline', 7n)).toBe(7n);
    expect(() => parseUint256((2n ** 256n).toString(), 'permitDeadline', 7n)).toThrow(/uint256/);
  });

  it('permitDeadline: a deadline at or before the network clock is a 400; none given is the maximum, without reading the clock', async () => {
    const now = jest.fn(async () => 1_700_000_000);
    expect(await parsePermitDeadline(undefined, now)).toBe(2n ** 256n - 1n);
    expect(now).not.toHaveBeenCalled();
    await expect(parsePermitDeadline('0', now)).rejects.toThrow(
      'permitDeadline 0 is already past (now 1700000000): sign the permit with a deadline in the future',
    );
    await expect(parsePermitDeadline('1700000000', now)).rejects.toMatchObject({ code: 'ERROR_CODE_BAD_REQUEST' });
    expect(await parsePermitDeadline('1700000001', now)).toBe(1_700_000_001n);
    await expect(parsePermitDeadline('1e9', now)).rejects.toThrow(/base units/);
  });
});

describe('slippage maths', () => {
  it('minOutput rounds down what the Router will enforce', () => {
    expect(minOutput(1_000_000n, 0.5)).toBe(995_000n);
    expect(minOutput(999n, 1)).toBe(989n);
    expect(minOutput(10n ** 18n, 2.5)).toBe(975n * 10n ** 15n);
  });

  it('auto slippage grows with price impact and observed drift; gas gets a 20 % buffer', () => {
    expect(autoSlippage(undefined)).toBe(0.5);
    expect(autoSlippage(2)).toBe(1);
    expect(autoSlippage(0.3, 1.2)).toBe(1.78);
    expect(driftPercent(1000n, 990n)).toBeCloseTo(1);
    expect(driftPercent(1000n, 1010n)).toBe(0);
    expect(bufferedGas(100_000)).toBe(120_000n);
    expect(bufferedGas(3n)).toBe(4n);
  });
});
