/**
 * A devnet relayer that behaves like Across's: it watches FundsDeposited on every network's
 * SpokePool and fills each deposit on its destination SpokePool with `fillRelay` (V3RelayData with
 * bytes32 addresses, repayment on the origin chain to itself) from its own token inventory, before
 * the fill deadline. The SpokePool pulls the output token from the relayer and pays the recipient
 * (unwrapping WETH to ETH, running the message on a contract recipient). Repayment comes later from
 * the data worker's refund leaves (`dataworker.ts`).
 *
 * Failure modes for tests: `normal`; `offline` (never fills; deposits wait, and are filled if the
 * mode goes back to normal before their deadline); `slow` (fills `slowDelayMs` after seeing the
 * deposit); `partial-inventory` (fills only deposits whose output amount is at most `maxFillAmount`).
 */
import { type JsonRpcProvider, MaxUint256, Wallet, getAddress } from 'ethers';
import type { Network } from '@tokensvc/domain';
import { ABI } from '../chain/abis';
import {
  type AcrossDeposit,
  type AcrossNetwork,
  FILL_STATUS,
  depositKey,
  devnetProvider,
  fillStatus,
  latestTimestamp,
  readDeposits,
  relayData,
  spokePoolInterface,
  toBytes32,
} from './spoke';

export type AcrossRelayerMode = 'normal' | 'offline' | 'slow' | 'partial-inventory';

export interface AcrossRelayerOptions {
  networks: readonly AcrossNetwork[];
  /** the relayer's key; it needs gas and output-token inventory on every destination (see `fundAcrossRelayer`) */
  relayerKey: string;
  mode?: AcrossRelayerMode;
  /** `slow`: how long after seeing a deposit it fills (default 3 s) */
  slowDelayMs?: number;
  /** `partial-inventory`: the largest output amount it fills (in the output token's units) */
  maxFillAmount?: bigint;
  pollMs?: number;
  /** first block to watch per network; default: the head when `start` runs */
  fromBlocks?: Partial<Record<Network, number>>;
  log?: (line: string, fields?: Record<string, unknown>) => void;
}

export interface AcrossFillRecord {
  deposit: AcrossDeposit;
  destination: Network;
  transactionHash: string;
  /** ms from the relayer seeing the deposit to the fill's receipt */
  ms: number;
}

interface Pending {
  deposit: AcrossDeposit;
  seenAt: number;
  failures: number;
  skipped?: string;
}

const MAX_FAILURES = 3;

export class AcrossRelayer {
  readonly address: string;
  readonly fills: AcrossFillRecord[] = [];
  /** deposits dropped without a fill, and why (expired, filled by someone else, unknown destination, failures) */
  readonly dropped: Array<{ deposit: AcrossDeposit; reason: string }> = [];
  private mode: AcrossRelayerMode;
  private readonly providers = new Map<number, JsonRpcProvider>();
  private readonly wallets = new Map<number, Wallet>();
  private readonly cursors = new Map<number, number>();
  private readonly pending = new Map<string, Pending>();
  private readonly approved = new Set<string>();
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;

  constructor(private readonly o: AcrossRelayerOptions) {
    this.mode = o.mode ?? 'normal';
    this.address = new Wallet(o.relayerKey).address;
    for (const net of o.networks) {
      const provider = devnetProvider(net.rpcUrl);
      this.providers.set(net.chainId, provider);
      this.wallets.set(net.chainId, new Wallet(o.relayerKey, provider));
    }
  }

  get currentMode(): AcrossRelayerMode {
    return this.mode;
  }

  setMode(mode: AcrossRelayerMode, opts: { slowDelayMs?: number; maxFillAmount?: bigint } = {}): void {
    this.mode = mode;
    if (opts.slowDelayMs !== undefined) this.o.slowDelayMs = opts.slowDelayMs;
    if (opts.maxFillAmount !== undefined) this.o.maxFillAmount = opts.maxFillAmount;
    this.log('mode', { mode });
  }

  /** Deposits seen and neither filled nor dropped yet. */
  pendingDeposits(): AcrossDeposit[] {
    return [...this.pending.values()].map((p) => p.deposit);
  }

  async start(): Promise<void> {
    if (this.running) return;
    for (const net of this.o.networks) {
      const from = this.o.fromBlocks?.[net.network];
      this.cursors.set(net.chainId, from !== undefined ? from - 1 : await this.provider(net.chainId).getBlockNumber());
    }
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    for (const p of this.providers.values()) p.destroy();
  }

  /** One pass: new deposits on every network, then a fill attempt for each pending one. */
  async pollOnce(): Promise<void> {
    for (const net of this.o.networks) {
      const provider = this.provider(net.chainId);
      const head = await provider.getBlockNumber();
      const from = this.cursors.get(net.chainId)! + 1;
      for (const d of await readDeposits(provider, net, from, head)) {
        const key = depositKey(d);
        if (!this.pending.has(key)) {
          this.pending.set(key, { deposit: d, seenAt: Date.now(), failures: 0 });
          this.log('deposit seen', { key, destinationChainId: d.destinationChainId, outputAmount: d.outputAmount.toString() });
        }
      }
      this.cursors.set(net.chainId, head);
    }
    for (const [key, p] of this.pending) await this.consider(key, p);
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.pollOnce();
      } catch (err) {
        this.log('pass failed', { err: (err as Error).message });
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.o.pollMs ?? 250);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private async consider(key: string, p: Pending): Promise<void> {
    const d = p.deposit;
    const destination = this.o.networks.find((n) => n.chainId === d.destinationChainId);
    if (!destination) return this.drop(key, p, `destination chain ${d.destinationChainId} is not a devnet network`);
    const provider = this.provider(destination.chainId);
    if ((await latestTimestamp(provider)) > d.fillDeadline) return this.drop(key, p, 'fill deadline passed');
    if ((await fillStatus(provider, destination, d)) === FILL_STATUS.Filled) return this.drop(key, p, 'already filled');
    if (this.mode === 'offline') return;
    if (this.mode === 'slow' && Date.now() - p.seenAt < (this.o.slowDelayMs ?? 3_000)) return;
    if (this.mode === 'partial-inventory' && d.outputAmount > (this.o.maxFillAmount ?? 0n)) {
      if (!p.skipped) this.log('not enough inventory for this deposit; not filling', { key, outputAmount: d.outputAmount.toString() });
      p.skipped = 'inventory';
      return;
    }
    const exclusive =
      d.exclusivityDeadline >= (await latestTimestamp(provider)) &&
      getAddress(d.exclusiveRelayer) !== getAddress('0x0000000000000000000000000000000000000000');
    if (exclusive && getAddress(d.exclusiveRelayer) !== this.address) return; // another relayer's exclusivity window
    try {
      const hash = await this.fill(destination, d);
      this.pending.delete(key);
      this.fills.push({ deposit: d, destination: destination.network, transactionHash: hash, ms: Date.now() - p.seenAt });
      this.log('filled', { key, destination: destination.network, tx: hash });
    } catch (err) {
      p.failures += 1;
      this.log('fill failed', { key, err: (err as Error).message, failures: p.failures });
      if (p.failures >= MAX_FAILURES) this.drop(key, p, `fill failed ${p.failures} times: ${(err as Error).message.slice(0, 200)}`);
    }
  }

  private async fill(destination: AcrossNetwork, d: AcrossDeposit): Promise<string> {
    const wallet = this.wallets.get(destination.chainId)!;
    const approval = `${destination.chainId}:${d.outputToken.toLowerCase()}`;
    if (!this.approved.has(approval)) {
      const tx = await wallet.sendTransaction({
        to: d.outputToken,
        data: ABI.erc20().encodeFunctionData('approve', [destination.spokePool, MaxUint256]),
      });
      await tx.wait();
      this.approved.add(approval);
    }
    // Repaid on the origin chain, in the input token, by the data worker's refund leaf.
    const data = spokePoolInterface().encodeFunctionData('fillRelay', [relayData(d), BigInt(d.originChainId), toBytes32(this.address)]);
    const tx = await wallet.sendTransaction({ to: destination.spokePool, data });
    const receipt = await tx.wait();
    if (!receipt || receipt.status !== 1) throw new Error(`fillRelay ${tx.hash} reverted`);
    return receipt.hash;
  }

  private drop(key: string, p: Pending, reason: string): void {
    this.pending.delete(key);
    this.dropped.push({ deposit: p.deposit, reason });
    this.log('dropped', { key, reason });
  }

  private provider(chainId: number): JsonRpcProvider {
    return this.providers.get(chainId)!;
  }

  private log(line: string, fields?: Record<string, unknown>): void {
    this.o.log?.(line, fields);
  }
}
