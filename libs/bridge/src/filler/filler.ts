/**
 * The devnet filler: watches DepositCreated on every network's escrow, pays each deposit's
 * recipient on the destination from its own inventory, then (as the escrows' attester) checks
 * the Filled event against the deposit and settles, which repays it the escrowed input on the
 * origin. Deposits nobody filled are refunded once `fillDeadline + REFUND_GRACE` has passed.
 *
 * A deposit that asks for another token than the bridged one (a basic token, the native coin, a
 * composed token) is filled through a destination swap: the filler spends what the deposit brings
 * (its bridged amount less the bridge fee) from its inventory on a swap or zap built by a
 * DestinationSwapper, then fills with everything the swap delivered; when the swap would deliver
 * less than the deposit's outputAmount it does not fill, and the deposit is refunded.
 *
 * It persists nothing: on start it re-reads the last `lookbackSeconds` of blocks and asks the
 * chains what is already filled, settled or refunded, so a restart never fills twice (and the
 * settler refuses a second fill of a request anyway).
 */
import { Interface, MaxUint256, Wallet } from 'ethers';
import { JsonRpcError, type RpcBlockHeader } from '@tokensvc/chain';
import {
  BRIDGE_REFUND_GRACE,
  type BridgeDeposit,
  bridgeEscrowInterface,
  decodeBridgeError,
  decodeRouterError,
  encodeFill,
  encodeRefund,
  encodeSettle,
  fillForDeposit,
  parseFilled,
  parseOrderExecuted,
} from '@tokensvc/contracts';
import type { Network } from '@tokensvc/domain';
import { type BridgeChainClient, type RawReceipt, chainNow, hexToNumber } from '../chain';
import { NATIVE_TOKEN } from '../devnet-config';
import { type DevnetBridgeProvider, rescale, sameAddress } from '../devnet-provider';
import type { BridgeDepositInfo } from '../provider';
import type { DestinationSwap, DestinationSwapper } from './destination-swapper';
import { type FillerLog, jsonFillerLog } from './log';
import { TxSender } from './tx-sender';

/**
 * normal: fills, settles, refunds. offline: does nothing at all (no watching either).
 * revert: every fill it sends reverts on chain (an already expired deadline), is recorded in
 * `failures` and not retried, so the refund path takes over. no-inventory: treats its balances
 * as empty and does not fill (logs why); settles and refunds as usual.
 */
export const FILLER_MODES = ['normal', 'offline', 'revert', 'no-inventory'] as const;
export type FillerMode = (typeof FILLER_MODES)[number];

export const isFillerMode = (v: string): v is FillerMode => (FILLER_MODES as readonly string[]).includes(v);

/** Read on every pass: change `mode` at any time. */
export interface FillerRuntimeOptions {
  mode: FillerMode;
}

export interface FillerOptions {
  provider: DevnetBridgeProvider;
  /** the filler's key on every network; on the devnet also the escrows' attester */
  privateKey: string;
  mode?: FillerMode;
  /** pause between passes (default 500 ms) */
  pollMs?: number;
  /**
   * How far back a fresh start reads deposits (default 40 minutes: the provider's 20-minute fill
   * window, the escrow's 10-minute refund grace and some slack), so open deposits of the recent
   * past are filled or refunded after a restart.
   */
  lookbackSeconds?: number;
  /** no fill this close to the deadline: it might be mined too late (default 5 s) */
  fillMarginSeconds?: number;
  /** native coin kept for gas, never used for fills (default 0.05) */
  nativeReserve?: bigint;
  /** deposits advanced at once (default 8) */
  concurrency?: number;
  /** after a failed step, the deposit waits this long before the next try (default 3 s) */
  retryDelayMs?: number;
  receiptPollMs?: number;
  /** builds destination swaps and zaps; without one, deposits asking for a token the bridge does not carry are left to the refund */
  swapper?: DestinationSwapper;
  log?: FillerLog;
}

/** One destination swap the filler ran (kept for reporting and tests). */
export interface SwapRecord {
  originNetwork: Network;
  destinationNetwork: Network;
  requestId: string;
  txHash: string;
  inputToken: string;
  inputAmount: bigint;
  outputToken: string;
  /** what the swap delivered to the filler (all of it goes to the recipient) */
  received: bigint;
  /** what the deposit asks at least */
  needed: bigint;
  gasUsed: bigint;
}

/** How a deposit is filled: the bridged token itself from inventory, or through a destination swap. */
export type FillPlan = { kind: 'direct'; amount: bigint } | { kind: 'swap'; bridgedToken: string; spend: bigint };

export interface FillFailure {
  originNetwork: Network;
  requestId: string;
  txHash: string;
  /** decoded revert (e.g. FillExpired) or the error message */
  error: string;
  at: Date;
}

interface PendingDeposit {
  key: string;
  info: BridgeDepositInfo;
  /** our fill's transaction, when this instance filled it */
  fillTxHash?: string;
  /** our fill reverted: not tried again by this instance; the refund path takes over */
  fillFailed?: string;
  /** the fill on the destination does not match the deposit: never settled */
  settleRejected?: string;
  /** last reason logged for waiting, so each is logged once */
  noted?: string;
  /** what this instance's destination swap delivered for it (filled from that, never swapped twice) */
  swapped?: bigint;
  retryAt?: number;
}

const GAS = { fill: 250_000n, settle: 200_000n, refund: 200_000n, approve: 100_000n } as const;
const ERC20 = new Interface(['function balanceOf(address) view returns (uint256)', 'function allowance(address,address) view returns (uint256)', 'function approve(address,uint256) returns (bool)']);

export class Filler {
  readonly options: FillerRuntimeOptions;
  readonly failures: FillFailure[] = [];
  readonly swaps: SwapRecord[] = [];
  readonly stats = { fills: 0, settlements: 0, refunds: 0 };
  readonly address: string;
  private readonly provider: DevnetBridgeProvider;
  private readonly swapper: DestinationSwapper | undefined;
  private readonly wallet: Wallet;
  private readonly log: FillerLog;
  private readonly pollMs: number;
  private readonly lookbackSeconds: number;
  private readonly fillMarginSeconds: number;
  private readonly nativeReserve: bigint;
  private readonly concurrency: number;
  private readonly retryDelayMs: number;
  private readonly receiptPollMs: number;
  private readonly pending = new Map<string, PendingDeposit>();
  /** last block scanned, per origin network */
  private readonly cursors = new Map<Network, number>();
  private readonly senders = new Map<Network, TxSender>();
  /** origin networks whose escrow names this filler as attester */
  private readonly attester = new Map<Network, boolean>();
  private readonly approvals = new Map<string, Promise<void>>();
  /** destination swaps run one at a time per network: each is quoted on the state the previous one left */
  private readonly swapLocks = new Map<Network, Promise<unknown>>();
  /** output amounts of fills in flight, per network:token (not yet visible in balances) */
  private readonly reserved = new Map<string, bigint>();
  private lastMode: FillerMode | undefined;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(o: FillerOptions) {
    this.provider = o.provider;
    this.swapper = o.swapper;
    this.wallet = new Wallet(o.privateKey);
    this.address = this.wallet.address;
    this.options = { mode: o.mode ?? 'normal' };
    this.log = o.log ?? jsonFillerLog();
    this.pollMs = o.pollMs ?? 500;
    this.lookbackSeconds = o.lookbackSeconds ?? 2_400;
    this.fillMarginSeconds = o.fillMarginSeconds ?? 5;
    this.nativeReserve = o.nativeReserve ?? 50_000_000_000_000_000n;
    this.concurrency = o.concurrency ?? 8;
    this.retryDelayMs = o.retryDelayMs ?? 3_000;
    this.receiptPollMs = o.receiptPollMs ?? 100;
  }

  /** Deposits watched and not final yet. */
  get pendingCount(): number {
    return this.pending.size;
  }

  setMode(mode: FillerMode): void {
    this.options.mode = mode;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.log('info', 'filler started', { filler: this.address, mode: this.options.mode, networks: this.provider.networks.map((n) => n.network), pollMs: this.pollMs, lookbackSeconds: this.lookbackSeconds, destinationSwaps: this.swapper !== undefined });
    this.loop = this.run();
  }

  /** Finishes the pass in progress (its transactions and receipts), then stops. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake?.();
    await this.loop;
    this.log('info', 'filler stopped', { filler: this.address, pending: this.pending.size, ...this.stats, failures: this.failures.length });
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.pass();
      } catch (e) {
        this.log('error', 'pass failed', { error: (e as Error).message });
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  /** One pass: read new deposits on every network, then move each watched deposit forward. */
  async pass(): Promise<void> {
    const mode = this.options.mode;
    if (mode !== this.lastMode) {
      if (this.lastMode !== undefined) this.log('info', 'mode changed', { mode, previous: this.lastMode });
      this.lastMode = mode;
    }
    if (mode === 'offline') return;
    const networks = this.provider.networks;
    const heads = new Map<Network, RpcBlockHeader>(await Promise.all(networks.map(async (n) => [n.network, await this.provider.chain(n.network).head()] as const)));
    await Promise.all(networks.map((n) => this.scan(n.network, heads.get(n.network)!)));
    await this.advanceAll(heads);
  }

  private async scan(network: Network, head: RpcBlockHeader): Promise<void> {
    const chain = this.provider.chain(network);
    if (!this.attester.has(network)) await this.checkAttester(network, chain);
    let cursor = this.cursors.get(network);
    if (cursor === undefined) {
      const from = await chain.firstBlockAtOrAfter(chainNow(head) - this.lookbackSeconds, head);
      cursor = from - 1;
      this.log('info', 'watching deposits', { network, fromBlock: from, head: head.number });
    }
    if (head.number <= cursor) return;
    for (const info of await this.provider.depositsInRange(network, cursor + 1, head.number)) {
      const key = `${network}:${info.requestId}`;
      if (this.pending.has(key)) continue;
      this.pending.set(key, { key, info });
      this.log('info', 'deposit seen', { ...depositFields(info), inputToken: info.inputToken, inputAmount: info.inputAmount, outputToken: info.outputToken, outputAmount: info.outputAmount, fillDeadline: info.fillDeadline, txHash: info.txHash, block: info.blockNumber });
    }
    this.cursors.set(network, head.number);
  }

  private async checkAttester(network: Network, chain: BridgeChainClient): Promise<void> {
    const iface = bridgeEscrowInterface();
    const escrow = this.provider.network(network).escrow;
    const attester = iface.decodeFunctionResult('attester', await chain.ethCall(escrow, iface.encodeFunctionData('attester')))[0] as string;
    const ok = sameAddress(attester, this.address);
    this.attester.set(network, ok);
    if (!ok) this.log('warn', 'not the attester of this escrow: deposits made here are not filled (a fill could not be repaid), only refunded', { network, escrow, attester, filler: this.address });
  }

  private async advanceAll(heads: Map<Network, RpcBlockHeader>): Promise<void> {
    const now = Date.now();
    const entries = [...this.pending.values()].filter((e) => e.retryAt === undefined || e.retryAt <= now);
    const byOrigin = groupBy(entries, (e) => e.info.originNetwork);
    const open: PendingDeposit[] = [];
    for (const [origin, list] of byOrigin) {
      const records = await this.provider.depositRecords(origin, list.map((e) => e.info.requestId));
      list.forEach((e, i) => {
        const status = records[i]!.status;
        if (status === 'open') open.push(e);
        else {
          this.pending.delete(e.key);
          this.log(status === 'none' ? 'warn' : 'debug', status === 'none' ? 'deposit vanished (reorganised away?)' : `deposit ${status}`, depositFields(e.info));
        }
      });
    }
    const servedDestinations = groupBy(
      open.filter((e) => e.info.destinationNetwork !== undefined && heads.has(e.info.destinationNetwork)),
      (e) => e.info.destinationNetwork!,
    );
    const fillers = new Map<string, string | undefined>();
    for (const [destination, list] of servedDestinations) {
      const filledBy = await this.provider.filledBy(destination, list.map((e) => ({ originChainId: e.info.originChainId, requestId: e.info.requestId })));
      list.forEach((e, i) => fillers.set(e.key, filledBy[i]));
    }
    await mapLimit(open, this.concurrency, async (e) => {
      try {
        await this.advance(e, fillers.get(e.key), heads);
      } catch (err) {
        e.retryAt = Date.now() + this.retryDelayMs;
        this.log('error', 'step failed; will retry', { ...depositFields(e.info), error: (err as Error).message });
      }
    });
  }

  private async advance(e: PendingDeposit, filledBy: string | undefined, heads: Map<Network, RpcBlockHeader>): Promise<void> {
    const d = e.info;
    const originHead = heads.get(d.originNetwork)!;
    const refundable = chainNow(originHead) >= d.fillDeadline + Number(BRIDGE_REFUND_GRACE);
    if (filledBy !== undefined && e.settleRejected === undefined) {
      if (this.attester.get(d.originNetwork)) return this.settle(e);
      if (!refundable) return this.note(e, 'filled; settling is up to the escrow attester', { filledBy });
    }
    if (refundable) return this.refund(e);
    const destination = d.destinationNetwork;
    const destinationHead = destination === undefined ? undefined : heads.get(destination);
    if (destination === undefined || destinationHead === undefined) return this.note(e, 'destination not served by this filler; waiting for the refund', { destinationChainId: d.destinationChainId });
    if (filledBy !== undefined) return this.note(e, 'fill not settled; waiting for the refund', { filledBy, reason: e.settleRejected });
    if (!this.attester.get(d.originNetwork)) return this.note(e, 'origin escrow has another attester; waiting for the refund');
    if (e.fillFailed !== undefined) return this.note(e, 'fill failed; waiting for the refund', { error: e.fillFailed });
    if (chainNow(destinationHead) + this.fillMarginSeconds >= d.fillDeadline) return this.note(e, 'too close to the fill deadline; waiting for the refund', { fillDeadline: d.fillDeadline });
    const plan = this.fillPlan(d);
    if (typeof plan === 'string') return this.note(e, `not filling: ${plan}`);
    await this.fill(e, destination, plan);
  }

  /**
   * How the filler takes this deposit, or why it will not. What a deposit brings is its bridged
   * amount less the bridge fee (the provider's fee schedule): paid as is when the deposit asks for
   * the bridged token (at least its outputAmount), else spent on a destination swap.
   */
  fillPlan(d: BridgeDepositInfo): FillPlan | string {
    try {
      const { token, amount } = this.provider.bridgedAmount(d.originNetwork, d.destinationNetwork!, d.inputToken, d.inputAmount);
      if (sameAddress(token.destinationToken, d.outputToken)) {
        const covered = rescale(d.inputAmount, token.originDecimals, token.destinationDecimals);
        if (covered < d.outputAmount) return `asks for ${d.outputAmount} ${token.symbol} base units for ${covered}`;
        return { kind: 'direct', amount: amount > d.outputAmount ? amount : d.outputAmount };
      }
      if (amount === 0n) return `${d.inputAmount} base units of ${token.symbol} do not cover the bridge fee`;
      return { kind: 'swap', bridgedToken: token.destinationToken, spend: amount };
    } catch (err) {
      return (err as Error).message;
    }
  }

  private async fill(e: PendingDeposit, destination: Network, plan: FillPlan): Promise<void> {
    const d = e.info;
    const mode = this.options.mode;
    // revert mode sends its doomed fill without swapping first: nothing would come of the swap.
    if (plan.kind === 'swap' && e.swapped === undefined && mode !== 'revert') {
      if (!(await this.swap(e, destination, plan))) return;
    }
    const amount = plan.kind === 'direct' ? plan.amount : (e.swapped ?? d.outputAmount);
    const native = sameAddress(d.outputToken, NATIVE_TOKEN);
    const key = `${destination}:${d.outputToken.toLowerCase()}`;
    // revert mode's fill fails before any transfer: it needs no inventory or approval (nor the token to exist).
    if (mode !== 'revert') {
      const balance = mode === 'no-inventory' ? 0n : await this.balance(destination, d.outputToken);
      const available = balance - (this.reserved.get(key) ?? 0n) - (native ? this.nativeReserve : 0n);
      if (available < amount) {
        return this.note(e, 'insufficient inventory; not filling', { token: d.outputToken, needed: amount, available: available < 0n ? 0n : available, simulated: mode === 'no-inventory' });
      }
      if (!native) await this.ensureApproval(destination, d.outputToken, this.provider.network(destination).settler);
    }
    this.reserved.set(key, (this.reserved.get(key) ?? 0n) + amount);
    try {
      const { settler } = this.provider.network(destination);
      // Everything the deposit brought (or the swap delivered) goes to the recipient: at least outputAmount.
      const fill = { ...fillForDeposit(BigInt(d.originChainId), d.requestId, toBridgeDeposit(d)), outputAmount: amount };
      // revert mode: a deadline long past, so the settler reverts (FillExpired) and nothing moves.
      const data = encodeFill(mode === 'revert' ? { ...fill, fillDeadline: 1n } : fill);
      const value = native ? amount : 0n;
      const sender = this.sender(destination);
      const sent = await sender.send({ to: settler, data, value, gasLimit: GAS.fill });
      this.log('info', 'fill sent', { ...depositFields(d), txHash: sent.hash, outputToken: d.outputToken, outputAmount: amount, minimum: d.outputAmount, recipient: d.recipient, sabotaged: mode === 'revert' });
      const receipt = await sender.wait(sent.hash);
      if (receipt.status !== '0x1') {
        const error = await this.revertReason(destination, { to: settler, data, value }, receipt);
        e.fillFailed = error;
        this.failures.push({ originNetwork: d.originNetwork, requestId: d.requestId, txHash: sent.hash, error, at: new Date() });
        this.log('error', 'fill reverted', { ...depositFields(d), txHash: sent.hash, error, mode });
        return;
      }
      e.fillTxHash = sent.hash;
      this.stats.fills += 1;
      this.log('info', 'filled', { ...depositFields(d), txHash: sent.hash, block: hexToNumber(receipt.blockNumber), outputAmount: amount, gasUsed: BigInt(receipt.gasUsed ?? '0x0') });
    } finally {
      this.reserved.set(key, (this.reserved.get(key) ?? 0n) - amount);
    }
    await this.settle(e);
  }

  /**
   * The destination swap of a deposit: spends `plan.spend` of the bridged token from inventory on
   * the swapper's transaction (paid to the filler), and records what it delivered in `e.swapped`.
   * Returns false when the deposit is not filled now: no swapper, no inventory, no swap to be had,
   * a swap that would deliver or delivered less than the deposit asks, a reverted swap.
   */
  private async swap(e: PendingDeposit, destination: Network, plan: Extract<FillPlan, { kind: 'swap' }>): Promise<boolean> {
    const d = e.info;
    const swapper = this.swapper;
    if (!swapper) {
      this.note(e, 'no destination swapper configured; not filling', { outputToken: d.outputToken });
      return false;
    }
    return this.exclusive(destination, async () => {
      const mode = this.options.mode;
      const token = plan.bridgedToken;
      const native = sameAddress(token, NATIVE_TOKEN);
      const key = `${destination}:${token.toLowerCase()}`;
      const balance = mode === 'no-inventory' ? 0n : await this.balance(destination, token);
      const available = balance - (this.reserved.get(key) ?? 0n) - (native ? this.nativeReserve : 0n);
      if (available < plan.spend) {
        this.note(e, 'insufficient inventory; not filling', { token, needed: plan.spend, available: available < 0n ? 0n : available, simulated: mode === 'no-inventory' });
        return false;
      }
      let swap: DestinationSwap;
      try {
        if (!native) await this.ensureApproval(destination, token, await swapper.spender(destination, token));
        swap = await swapper.build({ network: destination, inputToken: token, inputAmount: plan.spend, outputToken: d.outputToken, recipient: this.address, minOutputAmount: d.outputAmount });
      } catch (err) {
        e.retryAt = Date.now() + this.retryDelayMs;
        this.note(e, 'no destination swap now; will retry', { inputToken: token, inputAmount: plan.spend, outputToken: d.outputToken, error: (err as Error).message });
        return false;
      }
      if (swap.expectedOutput < d.outputAmount) {
        // Prices may come back before the deadline: asked again after the retry delay.
        e.retryAt = Date.now() + this.retryDelayMs;
        this.note(e, 'destination swap would deliver less than the deposit asks; not filling', { expected: swap.expectedOutput, needed: d.outputAmount, inputToken: token, inputAmount: plan.spend, outputToken: d.outputToken });
        return false;
      }
      this.reserved.set(key, (this.reserved.get(key) ?? 0n) + plan.spend);
      try {
        const sender = this.sender(destination);
        const sent = await sender.send({ to: swap.to, data: swap.data, value: swap.value, gasLimit: swap.gasLimit });
        this.log('info', 'swap sent', { ...depositFields(d), txHash: sent.hash, inputToken: token, inputAmount: plan.spend, outputToken: d.outputToken, expected: swap.expectedOutput, minimum: swap.minOutput, needed: d.outputAmount, route: swap.route });
        const receipt = await sender.wait(sent.hash);
        const gasUsed = BigInt(receipt.gasUsed ?? '0x0');
        if (receipt.status !== '0x1') {
          const error = await this.revertReason(destination, { to: swap.to, data: swap.data, value: swap.value }, receipt);
          e.retryAt = Date.now() + this.retryDelayMs;
          this.log('error', 'destination swap reverted; will retry', { ...depositFields(d), txHash: sent.hash, error, gasUsed });
          return false;
        }
        const executed = parseOrderExecuted(receipt.logs, swap.to).find((x) => sameAddress(x.recipient, this.address));
        if (!executed) throw new Error(`destination swap ${sent.hash} emitted no OrderExecuted to the filler`);
        const received = executed.outputAmount;
        this.swaps.push({ originNetwork: d.originNetwork, destinationNetwork: destination, requestId: d.requestId, txHash: sent.hash, inputToken: token, inputAmount: plan.spend, outputToken: d.outputToken, received, needed: d.outputAmount, gasUsed });
        this.log('info', 'swapped', { ...depositFields(d), txHash: sent.hash, outputToken: d.outputToken, received, needed: d.outputAmount, gasUsed });
        if (received < d.outputAmount) {
          // Kept as inventory; the deposit goes back to its depositor after the deadline.
          e.fillFailed = `the destination swap delivered ${received}, below the ${d.outputAmount} the deposit asks`;
          this.log('warn', 'destination swap delivered less than the deposit asks; not filling', { ...depositFields(d), txHash: sent.hash, received, needed: d.outputAmount });
          return false;
        }
        e.swapped = received;
        return true;
      } finally {
        this.reserved.set(key, (this.reserved.get(key) ?? 0n) - plan.spend);
      }
    });
  }

  private exclusive<T>(network: Network, fn: () => Promise<T>): Promise<T> {
    const run = (this.swapLocks.get(network) ?? Promise.resolve()).then(fn);
    this.swapLocks.set(network, run.catch(() => undefined));
    return run;
  }

  /** Checks the Filled event against the deposit, then repays its filler from the escrow. */
  private async settle(e: PendingDeposit): Promise<void> {
    const d = e.info;
    const destination = d.destinationNetwork!;
    const { settler } = this.provider.network(destination);
    const chain = this.provider.chain(destination);
    let fill: { txHash: string; blockNumber: number; filler: string; recipient: string; outputToken: string; amount: bigint } | undefined;
    if (e.fillTxHash) {
      const receipt = await chain.receipt(e.fillTxHash);
      const event = receipt ? parseFilled(receipt.logs, settler).find((f) => f.requestId === d.requestId && f.originChainId === BigInt(d.originChainId)) : undefined;
      if (receipt && event) fill = { txHash: e.fillTxHash, blockNumber: hexToNumber(receipt.blockNumber), filler: event.filler, recipient: event.recipient, outputToken: event.outputToken, amount: event.outputAmount };
    }
    // After a restart (or for another filler's fill) the event is looked up on the destination.
    fill ??= await this.provider.findFill(destination, d.originChainId, d.requestId);
    if (!fill) throw new Error('filled according to the settler, but no Filled event found');
    const minedAt = (await chain.header(fill.blockNumber)).timestamp;
    const mismatch = !sameAddress(fill.recipient, d.recipient)
      ? `recipient ${fill.recipient}, deposit says ${d.recipient}`
      : !sameAddress(fill.outputToken, d.outputToken)
        ? `token ${fill.outputToken}, deposit says ${d.outputToken}`
        : fill.amount < d.outputAmount
          ? `amount ${fill.amount}, deposit says ${d.outputAmount}`
          : minedAt > d.fillDeadline
            ? `mined at ${minedAt}, after the fill deadline ${d.fillDeadline}`
            : undefined;
    if (mismatch) {
      e.settleRejected = mismatch;
      this.log('warn', 'fill does not match the deposit; not settling', { ...depositFields(d), fillTxHash: fill.txHash, filler: fill.filler, mismatch });
      return;
    }
    const { escrow } = this.provider.network(d.originNetwork);
    const sender = this.sender(d.originNetwork);
    const sent = await sender.send({ to: escrow, data: encodeSettle(d.requestId, fill.filler, fill.txHash), gasLimit: GAS.settle });
    const receipt = await sender.wait(sent.hash);
    if (receipt.status !== '0x1') {
      const error = await this.revertReason(d.originNetwork, { to: escrow, data: encodeSettle(d.requestId, fill.filler, fill.txHash), value: 0n }, receipt);
      e.retryAt = Date.now() + this.retryDelayMs;
      this.log('error', 'settle reverted', { ...depositFields(d), txHash: sent.hash, error });
      return;
    }
    this.stats.settlements += 1;
    this.pending.delete(e.key);
    this.log('info', 'settled', { ...depositFields(d), txHash: sent.hash, filler: fill.filler, fillTxHash: fill.txHash, repaid: d.inputAmount, inputToken: d.inputToken });
  }

  private async refund(e: PendingDeposit): Promise<void> {
    const d = e.info;
    const { escrow } = this.provider.network(d.originNetwork);
    const data = encodeRefund(d.requestId);
    const sender = this.sender(d.originNetwork);
    const sent = await sender.send({ to: escrow, data, gasLimit: GAS.refund });
    const receipt = await sender.wait(sent.hash);
    if (receipt.status !== '0x1') {
      const error = await this.revertReason(d.originNetwork, { to: escrow, data, value: 0n }, receipt);
      e.retryAt = Date.now() + this.retryDelayMs;
      this.log('error', 'refund reverted', { ...depositFields(d), txHash: sent.hash, error });
      return;
    }
    this.stats.refunds += 1;
    this.pending.delete(e.key);
    this.log('info', 'refunded', { ...depositFields(d), txHash: sent.hash, refundTo: d.refundTo, amount: d.inputAmount, token: d.inputToken, reason: e.fillFailed ?? e.settleRejected ?? e.noted ?? 'not filled by the deadline' });
  }

  private note(e: PendingDeposit, reason: string, fields: Record<string, unknown> = {}): void {
    if (e.noted === reason) return;
    e.noted = reason;
    this.log('info', reason, { ...depositFields(e.info), ...fields });
  }

  private async balance(network: Network, token: string): Promise<bigint> {
    const chain = this.provider.chain(network);
    if (sameAddress(token, NATIVE_TOKEN)) return BigInt(await chain.rpc.call<string>('eth_getBalance', [this.address, 'latest']));
    return ERC20.decodeFunctionResult('balanceOf', await chain.ethCall(token, ERC20.encodeFunctionData('balanceOf', [this.address])))[0] as bigint;
  }

  /** Approves `spender` (the settler, or the swapper's Router) once per token (unlimited), before the first use. */
  private ensureApproval(network: Network, token: string, spender: string): Promise<void> {
    const key = `${network}:${token.toLowerCase()}:${spender.toLowerCase()}`;
    let done = this.approvals.get(key);
    if (!done) {
      done = this.approve(network, token, spender);
      this.approvals.set(key, done);
      done.catch(() => this.approvals.delete(key));
    }
    return done;
  }

  private async approve(network: Network, token: string, spender: string): Promise<void> {
    const { settler } = this.provider.network(network);
    const chain = this.provider.chain(network);
    const allowance = ERC20.decodeFunctionResult('allowance', await chain.ethCall(token, ERC20.encodeFunctionData('allowance', [this.address, spender])))[0] as bigint;
    if (allowance >= MaxUint256 / 2n) return;
    const sender = this.sender(network);
    const sent = await sender.send({ to: token, data: ERC20.encodeFunctionData('approve', [spender, MaxUint256]), gasLimit: GAS.approve });
    const receipt = await sender.wait(sent.hash);
    const what = sameAddress(spender, settler) ? 'the settler' : `the swap router ${spender}`;
    if (receipt.status !== '0x1') throw new Error(`approving ${token} to ${what} reverted (${sent.hash})`);
    this.log('info', sameAddress(spender, settler) ? 'approved the settler' : 'approved the swap router', { network, token, spender, txHash: sent.hash });
  }

  private sender(network: Network): TxSender {
    let s = this.senders.get(network);
    if (!s) {
      s = new TxSender(this.provider.chain(network).rpc, this.wallet, this.provider.network(network).chainId, this.receiptPollMs);
      this.senders.set(network, s);
    }
    return s;
  }

  /** The decoded error of a mined, failed transaction, by replaying it on the block before. */
  private async revertReason(network: Network, tx: { to: string; data: string; value: bigint }, receipt: RawReceipt): Promise<string> {
    const block = hexToNumber(receipt.blockNumber) - 1;
    try {
      await this.provider.chain(network).rpc.call('eth_call', [{ from: this.address, to: tx.to, data: tx.data, value: `0x${tx.value.toString(16)}` }, `0x${block.toString(16)}`], { retryIf: () => false });
      return 'reverted on chain (succeeds when replayed)';
    } catch (err) {
      const data = err instanceof JsonRpcError && typeof err.data === 'string' ? err.data : undefined;
      if (!data) return (err as Error).message;
      const bridge = decodeBridgeError(data);
      if (bridge) return bridge.name;
      const router = decodeRouterError(data);
      if (router) return router.inner ? `${router.name}: ${router.inner.name}` : router.name;
      return (err as Error).message;
    }
  }
}

function depositFields(d: BridgeDepositInfo): Record<string, unknown> {
  return { originNetwork: d.originNetwork, destinationNetwork: d.destinationNetwork ?? `chain ${d.destinationChainId}`, requestId: d.requestId };
}

export function toBridgeDeposit(d: BridgeDepositInfo): BridgeDeposit {
  return {
    inputToken: d.inputToken,
    inputAmount: d.inputAmount,
    destinationChainId: BigInt(d.destinationChainId),
    outputToken: d.outputToken,
    outputAmount: d.outputAmount,
    recipient: d.recipient,
    fillDeadline: BigInt(d.fillDeadline),
    refundTo: d.refundTo,
  };
}

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

async function mapLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
