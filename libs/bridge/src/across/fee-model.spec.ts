import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AcrossApiFees, type AcrossFeeRequest, ConfiguredAcrossFees } from './fee-model';

const USDC: AcrossFeeRequest = {
  symbol: 'USDC',
  originChainId: 1,
  destinationChainId: 8453,
  inputToken: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  outputToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  inputDecimals: 6,
  outputDecimals: 6,
  amount: 100_000_000n,
};

describe('ConfiguredAcrossFees', () => {
  it('takes the relayer and LP fees in basis points (rounded up), keeps the minimum per symbol and the window', async () => {
    const fees = new ConfiguredAcrossFees({
      relayerFeeBps: 4,
      lpFeeBps: 1,
      minimumInput: { USDC: 1_000_000n },
      fillDeadlineSeconds: 3600,
      estimatedSeconds: 12,
    });
    expect(await fees.quote(USDC)).toEqual({
      relayerFee: 40_000n,
      lpFee: 10_000n,
      outputAmount: 99_950_000n,
      minimumInput: 1_000_000n,
      fillDeadlineOffset: 3600,
      exclusivity: undefined,
      estimatedSeconds: 12,
      source: 'configured',
    });
    expect((await fees.quote({ ...USDC, amount: 3n })).outputAmount).toBe(1n);
    expect((await fees.quote({ ...USDC, symbol: 'WETH', outputDecimals: 18 })).outputAmount).toBe(99_950_000n * 10n ** 12n);
    expect((await fees.quote({ ...USDC, symbol: 'DAI' })).minimumInput).toBe(0n);
  });

  it('refuses fees outside 0..9999 bps', () => {
    expect(() => new ConfiguredAcrossFees({ relayerFeeBps: 10_000 })).toThrow(/relayerFeeBps must be an integer in 0..9999/);
  });
});

describe('AcrossApiFees against a loopback suggested-fees server', () => {
  let server: Server;
  let base: string;
  let answer: (url: URL) => { status: number; body?: unknown; delayMs?: number };
  const requests: URL[] = [];
  const headers: Array<string | undefined> = [];
  const fallback = new ConfiguredAcrossFees({ relayerFeeBps: 4, lpFeeBps: 1, minimumInput: { USDC: 500_000n } });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://loopback');
      requests.push(url);
      headers.push(req.headers.authorization);
      const a = answer(url);
      const timer = setTimeout(() => {
        res.writeHead(a.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(a.body ?? { message: 'internal error' }));
      }, a.delayMs ?? 0);
      res.on('close', () => clearTimeout(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("reads a normal answer: fees, the API's output amount, minimum, deadline window, exclusivity and fill time", async () => {
    answer = () => ({
      status: 200,
      body: {
        totalRelayFee: { pct: '700000000000000', total: '70000' },
        relayerCapitalFee: { pct: '100000000000000', total: '10000' },
        relayerGasFee: { pct: '500000000000000', total: '50000' },
        lpFee: { pct: '100000000000000', total: '10000' },
        outputAmount: '99930000',
        timestamp: '1700000000',
        fillDeadline: '1700010800',
        isAmountTooLow: false,
        quoteBlock: '19000000',
        spokePoolAddress: '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5',
        exclusiveRelayer: '0x394311A6Aaa0D8E3411D8b62DE4578D41322d1bD',
        exclusivityDeadline: 1700000004,
        estimatedFillTimeSec: 6,
        limits: {
          minDeposit: '1000000',
          maxDeposit: '5000000000000',
          maxDepositInstant: '1000000000',
          maxDepositShortDelay: '2000000000',
          recommendedDepositInstant: '1000000000',
        },
      },
    });
    const fees = new AcrossApiFees({ baseUrl: base, fallback, apiKey: 'k-123' });
    const q = await fees.quote(USDC);
    expect(q).toEqual({
      relayerFee: 60_000n,
      lpFee: 10_000n,
      outputAmount: 99_930_000n,
      minimumInput: 1_000_000n,
      fillDeadlineOffset: 10_800,
      exclusivity: { relayer: '0x394311A6Aaa0D8E3411D8b62DE4578D41322d1bD', deadline: 1700000004 },
      estimatedSeconds: 6,
      source: 'api',
    });
    const url = requests.at(-1)!;
    expect(url.pathname).toBe('/api/suggested-fees');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      inputToken: USDC.inputToken,
      outputToken: USDC.outputToken,
      originChainId: '1',
      destinationChainId: '8453',
      amount: '100000000',
    });
    expect(headers.at(-1)).toBe('Bearer k-123');
  });

  it('an amount the API calls too low delivers nothing (the provider refuses it)', async () => {
    answer = () => ({
      status: 200,
      body: {
        totalRelayFee: { pct: '0', total: '900000' },
        lpFee: { pct: '0', total: '0' },
        isAmountTooLow: true,
        limits: { minDeposit: '2000000' },
      },
    });
    const q = await new AcrossApiFees({ baseUrl: base, fallback }).quote({ ...USDC, amount: 1_000_000n });
    expect([q.source, q.outputAmount, q.minimumInput]).toEqual(['api', 0n, 2_000_000n]);
  });

  it('falls back to the configured fees on a 500', async () => {
    answer = () => ({ status: 500 });
    const q = await new AcrossApiFees({ baseUrl: base, fallback }).quote(USDC);
    expect(q).toMatchObject({
      source: 'configured',
      relayerFee: 40_000n,
      lpFee: 10_000n,
      outputAmount: 99_950_000n,
      minimumInput: 500_000n,
      fallbackReason: 'suggested-fees answered 500',
    });
  });

  it('falls back on a timeout, without waiting for the slow answer', async () => {
    answer = () => ({ status: 200, delayMs: 5_000, body: { totalRelayFee: { pct: '0', total: '1' } } });
    const started = Date.now();
    const q = await new AcrossApiFees({ baseUrl: base, fallback, timeoutMs: 200 }).quote(USDC);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(q).toMatchObject({ source: 'configured', outputAmount: 99_950_000n });
    expect(q.fallbackReason).toMatch(/timeout|aborted/i);
  });

  it('falls back on an answer it cannot read', async () => {
    answer = () => ({ status: 200, body: { totalRelayFee: { pct: '1', total: '-5' } } });
    const q = await new AcrossApiFees({ baseUrl: base, fallback }).quote(USDC);
    expect(q.source).toBe('configured');
    expect(q.fallbackReason).toMatch(/totalRelayFee.total is not an unsigned integer/);
  });
});
