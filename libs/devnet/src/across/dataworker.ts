/**
 * A devnet data worker that behaves like Across's, minus the HubPool and its challenge period: each
 * bundle looks at the deposits seen so far and
 * - refunds every deposit whose fill deadline passed on its destination while unfilled: a relayer
 *   refund leaf paying `inputAmount` of the input token back to the depositor on the origin chain;
 * - repays every filled deposit's relayer: a leaf paying it `inputAmount` of the input token on the
 *   repayment chain, when that is the origin (the devnet maps no tokens between chains, so a fill
 *   asking repayment elsewhere is reported, not repaid; the devnet relayer always asks for the origin).
 * Leaves are one per (chain, token) with `amountToReturn` 0; their Merkle root (sorted pairs over
 * keccak256(abi.encode(leaf)), as MerkleLib checks) is relayed with `relayRootBundle` by the HubPool's
 * stand-in on each chain that has leaves, then every leaf is executed with `executeRelayerRefundLeaf`,
 * so the SpokePool contract itself pays the depositors and relayers out of the deposits it holds.
 */
import { type JsonRpcProvider, JsonRpcSigner, getAddress } from 'ethers';
import type { Network } from '@tokensvc/domain';
import { hubPoolSigner } from './admin';
import { MerkleTree, type RelayerRefundLeaf, refundLeafHash } from './merkle';
import {
  type AcrossDeposit,
  type AcrossNetwork,
  FILL_STATUS,
  depositKey,
  devnetProvider,
  fillStatus,
  findFill,
  latestTimestamp,
  readDeposits,
  spokePoolInterface,
} from './spoke';

export interface AcrossDataWorkerOptions {
  networks: readonly AcrossNetwork[];
  /** first block to read deposits from per network; default: the head when `init` runs */
  fromBlocks?: Partial<Record<Network, number>>;
  /** sends the (permissionless) leaf executions; default: the HubPool stand-in's signer on each chain */
  executor?: string;
  log?: (line: string, fields?: Record<string, unknown>) => void;
}

export interface BundlePayment {
  kind: 'expired-deposit-refund' | 'relayer-repayment';
  deposit: AcrossDeposit;
  network: Network;
  token: string;
  to: string;
  amount: bigint;
}

export interface BundleResult {
  /** undefined when nothing was due */
  root?: string;
  leaves: RelayerRefundLeaf[];
  payments: BundlePayment[];
  relayed: Array<{ network: Network; rootBundleId: number; transactionHash: string }>;
  executed: Array<{ network: Network; leafId: number; transactionHash: string }>;
  /** filled deposits whose relayer asked repayment on another chain than the origin */
  unrepaid: AcrossDeposit[];
}

export class AcrossDataWorker {
  private readonly providers = new Map<number, JsonRpcProvider>();
  private readonly cursors = new Map<number, number>();
  private readonly pending = new Map<string, AcrossDeposit>();

  constructor(private readonly o: AcrossDataWorkerOptions) {
    for (const net of o.networks) this.providers.set(net.chainId, devnetProvider(net.rpcUrl));
  }

  async init(): Promise<void> {
    for (const net of this.o.networks) {
      const from = this.o.fromBlocks?.[net.network];
      this.cursors.set(net.chainId, from !== undefined ? from - 1 : await this.provider(net.chainId).getBlockNumber());
    }
  }

  close(): void {
    for (const p of this.providers.values()) p.destroy();
  }

  /** Deposits seen and not settled by a bundle yet. */
  pendingDeposits(): AcrossDeposit[] {
    return [...this.pending.values()];
  }

  /** Reads new deposits, decides what is due, and relays and executes one root bundle for it. */
  async runBundle(): Promise<BundleResult> {
    if (this.cursors.size === 0) await this.init();
    await this.readNewDeposits();
    const result: BundleResult = { leaves: [], payments: [], relayed: [], executed: [], unrepaid: [] };
    for (const [key, d] of this.pending) {
      const destination = this.net(d.destinationChainId);
      if (!destination) continue;
      const provider = this.provider(destination.chainId);
      if ((await fillStatus(provider, destination, d)) === FILL_STATUS.Filled) {
        const fill = await findFill(provider, destination, d);
        this.pending.delete(key);
        if (!fill) continue;
        if (fill.repaymentChainId !== d.originChainId || !this.net(fill.repaymentChainId)) {
          result.unrepaid.push(d);
          continue;
        }
        result.payments.push({
          kind: 'relayer-repayment',
          deposit: d,
          network: this.net(d.originChainId)!.network,
          token: d.inputToken,
          to: fill.relayer,
          amount: d.inputAmount,
        });
      } else if ((await latestTimestamp(provider)) > d.fillDeadline) {
        this.pending.delete(key);
        result.payments.push({
          kind: 'expired-deposit-refund',
          deposit: d,
          network: this.net(d.originChainId)!.network,
          token: d.inputToken,
          to: d.depositor,
          amount: d.inputAmount,
        });
      }
    }
    if (result.payments.length === 0) return result;

    result.leaves = buildLeaves(result.payments, (network) => this.o.networks.find((n) => n.network === network)!.chainId);
    const tree = new MerkleTree(result.leaves.map(refundLeafHash));
    result.root = tree.root;
    const iface = spokePoolInterface();
    for (const chainId of [...new Set(result.leaves.map((l) => Number(l.chainId)))]) {
      const net = this.net(chainId)!;
      const provider = this.provider(chainId);
      const admin = await hubPoolSigner(provider, net);
      const relay = await (
        await admin.sendTransaction({
          to: net.spokePool,
          data: iface.encodeFunctionData('relayRootBundle', [tree.root, `0x${'0'.repeat(64)}`]),
        })
      ).wait();
      const relayed = relay?.logs.map((l) => iface.parseLog(l)).find((e) => e?.name === 'RelayedRootBundle');
      if (!relay || relay.status !== 1 || !relayed) throw new Error(`relayRootBundle on ${net.network} did not emit RelayedRootBundle`);
      const rootBundleId = Number(relayed.args['rootBundleId']);
      result.relayed.push({ network: net.network, rootBundleId, transactionHash: relay.hash });
      this.log('relayed root bundle', { network: net.network, rootBundleId, root: tree.root });
      const executor = this.o.executor ? new JsonRpcSigner(provider, getAddress(this.o.executor)) : admin;
      for (const [index, leaf] of result.leaves.entries()) {
        if (Number(leaf.chainId) !== chainId) continue;
        const data = iface.encodeFunctionData('executeRelayerRefundLeaf', [rootBundleId, leaf, tree.proof(index)]);
        const receipt = await (await executor.sendTransaction({ to: net.spokePool, data })).wait();
        if (!receipt || receipt.status !== 1) throw new Error(`executeRelayerRefundLeaf ${leaf.leafId} on ${net.network} reverted`);
        result.executed.push({ network: net.network, leafId: leaf.leafId, transactionHash: receipt.hash });
        this.log('executed refund leaf', { network: net.network, leafId: leaf.leafId, tx: receipt.hash });
      }
      await provider.send('anvil_stopImpersonatingAccount', [admin.address]).catch(() => undefined);
    }
    return result;
  }

  private async readNewDeposits(): Promise<void> {
    for (const net of this.o.networks) {
      const provider = this.provider(net.chainId);
      const head = await provider.getBlockNumber();
      for (const d of await readDeposits(provider, net, this.cursors.get(net.chainId)! + 1, head)) this.pending.set(depositKey(d), d);
      this.cursors.set(net.chainId, head);
    }
  }

  private net(chainId: number): AcrossNetwork | undefined {
    return this.o.networks.find((n) => n.chainId === chainId);
  }

  private provider(chainId: number): JsonRpcProvider {
    return this.providers.get(chainId)!;
  }

  private log(line: string, fields?: Record<string, unknown>): void {
    this.o.log?.(line, fields);
  }
}

/** One leaf per (chain, token), amounts summed per address, leaf ids in order. */
export function buildLeaves(payments: readonly BundlePayment[], chainIdOf: (network: Network) => number): RelayerRefundLeaf[] {
  const groups = new Map<string, { chainId: number; token: string; amounts: Map<string, bigint> }>();
  for (const p of payments) {
    const chainId = chainIdOf(p.network);
    const key = `${chainId}:${p.token.toLowerCase()}`;
    const group = groups.get(key) ?? { chainId, token: getAddress(p.token), amounts: new Map<string, bigint>() };
    group.amounts.set(getAddress(p.to), (group.amounts.get(getAddress(p.to)) ?? 0n) + p.amount);
    groups.set(key, group);
  }
  return [...groups.values()].map((g, leafId) => ({
    amountToReturn: 0n,
    chainId: BigInt(g.chainId),
    refundAmounts: [...g.amounts.values()],
    leafId,
    l2TokenAddress: g.token,
    refundAddresses: [...g.amounts.keys()],
  }));
}
