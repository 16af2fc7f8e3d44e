/**
 * What an Across deposit costs and how long it may wait. Two models:
 * - `ConfiguredAcrossFees`: relayer fee and LP fee in basis points of the input, a minimum input per
 *   token symbol, a fixed fill window; the devnet's model (its relayer takes whatever the deposit
 *   offers) and the fallback on real networks.
 * - `AcrossApiFees`: Across's public suggested-fees API (`GET {base}/suggested-fees`), with a timeout;
 *   any failure (network, non-2xx, timeout, a body it cannot read) falls back to the configured model.
 */
import { rescale } from '../tokens';

export interface AcrossFeeRequest {
  /** the bridged token's symbol on both sides (USDC, WETH; ETH for a native deposit) */
  symbol: string;
  originChainId: number;
  destinationChainId: number;
  /** the SpokePool's input token on the origin (WETH for a native deposit) */
  inputToken: string;
  /** the deposit's output token on the destination (WETH for a native deposit) */
  outputToken: string;
  inputDecimals: number;
  outputDecimals: number;
  amount: bigint;
}

export interface AcrossFeeQuote {
  /** what the relayer keeps (capital and gas), in input-token units */
  relayerFee: bigint;
  /** what Across's LPs keep, in input-token units */
  lpFee: bigint;
  /** what the recipient receives, in output-token units; <= 0 when the fees eat the amount */
  outputAmount: bigint;
  /** the smallest input Across takes for this token (input units) */
  minimumInput: bigint;
  /** fill deadline = quote time + this many seconds */
  fillDeadlineOffset: number;
  /** an exclusive relayer and its window as the API proposes (the provider deposits without exclusivity) */
  exclusivity: { relayer: string; deadline: number } | undefined;
  estimatedSeconds: number;
  /** which model answered: the API, or the configured figures (devnet, or the API's fallback) */
  source: 'configured' | 'api';
  /** when the API answered: why not (for logs) */
  fallbackReason?: string;
}

export interface AcrossFeeModel {
  quote(request: AcrossFeeRequest): Promise<AcrossFeeQuote>;
}

export interface ConfiguredAcrossFeesOptions {
  /** relayer fee in basis points of the input (default 4) */
  relayerFeeBps?: number;
  /** LP fee in basis points of the input (default 1) */
  lpFeeBps?: number;
  /** smallest input per symbol, in that token's base units; a symbol without one has no minimum */
  minimumInput?: Readonly<Record<string, bigint>>;
  /** default 4 hours: below the SpokePools' 6-hour fillDeadlineBuffer */
  fillDeadlineSeconds?: number;
  /** default 10 */
  estimatedSeconds?: number;
}

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

export class ConfiguredAcrossFees implements AcrossFeeModel {
  readonly relayerFeeBps: number;
  readonly lpFeeBps: number;
  readonly fillDeadlineSeconds: number;
  readonly estimatedSeconds: number;

  constructor(readonly options: ConfiguredAcrossFeesOptions = {}) {
    this.relayerFeeBps = options.relayerFeeBps ?? 4;
    this.lpFeeBps = options.lpFeeBps ?? 1;
    this.fillDeadlineSeconds = options.fillDeadlineSeconds ?? 4 * 3600;
    this.estimatedSeconds = options.estimatedSeconds ?? 10;
    for (const [name, v] of [
      ['relayerFeeBps', this.relayerFeeBps],
      ['lpFeeBps', this.lpFeeBps],
    ] as const) {
      if (!Number.isInteger(v) || v < 0 || v >= 10_000) throw new Error(`${name} must be an integer in 0..9999, got ${v}`);
    }
  }

  quote(r: AcrossFeeRequest): Promise<AcrossFeeQuote> {
    return Promise.resolve(this.quoteSync(r));
  }

  quoteSync(r: AcrossFeeRequest): AcrossFeeQuote {
    const relayerFee = ceilDiv(r.amount * BigInt(this.relayerFeeBps), 10_000n);
    const lpFee = ceilDiv(r.amount * BigInt(this.lpFeeBps), 10_000n);
    const net = r.amount - relayerFee - lpFee;
    return {
      relayerFee,
      lpFee,
      outputAmount: net > 0n ? rescale(net, r.inputDecimals, r.outputDecimals) : 0n,
      minimumInput: this.options.minimumInput?.[r.symbol] ?? 0n,
      fillDeadlineOffset: this.fillDeadlineSeconds,
      exclusivity: undefined,
      estimatedSeconds: this.estimatedSeconds,
      source: 'configured',
    };
  }
}

export interface AcrossApiFeesOptions {
  /** e.g. https://app.across.to/api (no trailing slash needed) */
  baseUrl: string;
  fallback: ConfiguredAcrossFees;
  /** default 3000 */
  timeoutMs?: number;
  /** sent as `Authorization: Bearer <key>` (Across asks integrators for one) */
  apiKey?: string;
  fetchImpl?: typeof fetch;
}

/**
 * The fields of a suggested-fees answer this model reads (Across API docs, "suggested-fees": fees as
 * `{ pct, total }` with pct scaled by 1e18 and total in input units, `totalRelayFee` covering the
 * relayer's capital and gas fees and the LP fee; `outputAmount` in newer answers; `isAmountTooLow`;
 * `limits.minDeposit`; `fillDeadline` and `timestamp` in unix seconds; `exclusiveRelayer`,
 * `exclusivityDeadline`; `estimatedFillTimeSec`).
 */
interface SuggestedFees {
  totalRelayFee: { pct: string; total: string };
  lpFee?: { pct: string; total: string };
  outputAmount?: string;
  isAmountTooLow?: boolean;
  limits?: { minDeposit?: string };
  timestamp?: string | number;
  fillDeadline?: string | number;
  exclusiveRelayer?: string;
  exclusivityDeadline?: string | number;
  estimatedFillTimeSec?: string | number;
}

const ZERO = '0x0000000000000000000000000000000000000000';
const DIGITS = /^\d+$/;

export class AcrossApiFees implements AcrossFeeModel {
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(readonly options: AcrossApiFeesOptions) {
    this.timeoutMs = options.timeoutMs ?? 3_000;
    this.fetchImpl = options.fetchImpl ?? fetch;
  }

  async quote(r: AcrossFeeRequest): Promise<AcrossFeeQuote> {
    try {
      return this.fromAnswer(r, await this.ask(r));
    } catch (err) {
      return { ...this.options.fallback.quoteSync(r), fallbackReason: (err as Error).message };
    }
  }

  url(r: AcrossFeeRequest): string {
    const q = new URLSearchParams({
      inputToken: r.inputToken,
      outputToken: r.outputToken,
      originChainId: String(r.originChainId),
      destinationChainId: String(r.destinationChainId),
      amount: r.amount.toString(),
    });
    let base = this.options.baseUrl;
    while (base.endsWith('/')) base = base.slice(0, -1);
    return `${base}/suggested-fees?${q.toString()}`;
  }

  private async ask(r: AcrossFeeRequest): Promise<SuggestedFees> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.apiKey) headers['authorization'] = `Bearer ${this.options.apiKey}`;
    const res = await this.fetchImpl(this.url(r), { headers, signal: AbortSignal.timeout(this.timeoutMs) });
    if (!res.ok) throw new Error(`suggested-fees answered ${res.status}`);
    return (await res.json()) as SuggestedFees;
  }

  private fromAnswer(r: AcrossFeeRequest, a: SuggestedFees): AcrossFeeQuote {
    const uint = (what: string, v: unknown): bigint => {
      const s = typeof v === 'number' ? String(v) : v;
      if (typeof s !== 'string' || !DIGITS.test(s))
        throw new Error(`suggested-fees: ${what} is not an unsigned integer (${JSON.stringify(v)})`);
      return BigInt(s);
    };
    const total = uint('totalRelayFee.total', a.totalRelayFee?.total);
    const lpFee = a.lpFee ? uint('lpFee.total', a.lpFee.total) : 0n;
    const relayerFee = total > lpFee ? total - lpFee : 0n;
    const outputAmount =
      a.outputAmount !== undefined
        ? uint('outputAmount', a.outputAmount)
        : r.amount > total
          ? rescale(r.amount - total, r.inputDecimals, r.outputDecimals)
          : 0n;
    const minDeposit = a.limits?.minDeposit !== undefined ? uint('limits.minDeposit', a.limits.minDeposit) : 0n;
    const quoteTime = a.timestamp !== undefined ? Number(uint('timestamp', a.timestamp)) : undefined;
    const deadline = a.fillDeadline !== undefined ? Number(uint('fillDeadline', a.fillDeadline)) : undefined;
    const fallback = this.options.fallback;
    const exclusive =
      a.exclusiveRelayer && a.exclusiveRelayer.toLowerCase() !== ZERO
        ? { relayer: a.exclusiveRelayer, deadline: Number(uint('exclusivityDeadline', a.exclusivityDeadline ?? 0)) }
        : undefined;
    return {
      relayerFee,
      lpFee,
      // An amount the API calls too low delivers nothing: the provider refuses it as AMOUNT_TOO_SMALL.
      outputAmount: a.isAmountTooLow ? 0n : outputAmount,
      minimumInput: minDeposit,
      fillDeadlineOffset:
        quoteTime !== undefined && deadline !== undefined && deadline > quoteTime
          ? Math.min(deadline - quoteTime, fallback.fillDeadlineSeconds)
          : fallback.fillDeadlineSeconds,
      exclusivity: exclusive,
      estimatedSeconds:
        a.estimatedFillTimeSec !== undefined ? Number(uint('estimatedFillTimeSec', a.estimatedFillTimeSec)) : fallback.estimatedSeconds,
      source: 'api',
    };
  }
}
