import type { RpcLog } from '@tokensvc/chain';
import type { Discovery } from '../model/registry.types';
import { asLogList, type LogList } from '../rpc/log-list';
import type { ContractRegistry } from '../registry/contract-registry';
import { discoveriesInScope } from '../registry/scope';
import { type DiscoveryHandler, type FastLogHandler, type LogHandler, type ProtocolAdapter, dexFacet } from '@tokensvc/protocols';
import type { BatchAccumulator } from './batch-accumulator';

export interface FoundDiscovery {
  log: RpcLog;
  discovery: Discovery;
}

/**
 * Dispatches logs by topic0 to the adapters' hand-written decoders: one Map lookup per log, no
 * ABI parsing. Discovery events (from source contracts) are a separate first pass, because they
 * decide which contracts' logs the batch must read.
 */
export class LogDecoder {
  private readonly handlers = new Map<string, LogHandler>();
  private readonly fastHandlers = new Map<string, FastLogHandler>();
  private readonly discoveryHandlers = new Map<string, DiscoveryHandler>();

  constructor(adapters: readonly ProtocolAdapter[]) {
    for (const a of adapters) {
      for (const [topic, h] of Object.entries(a.handlers)) add(this.handlers, topic, h, a.family);
      for (const [topic, h] of Object.entries(a.fastHandlers ?? {})) {
        if (!(topic in a.handlers)) throw new Error(`${a.family}: a fast handler for ${topic} without a handler`);
        add(this.fastHandlers, topic, h, a.family);
      }
      for (const [topic, h] of Object.entries(a.discoveryHandlers)) add(this.discoveryHandlers, topic, h, a.family);
    }
  }

  /** every topic0 the log filter asks for */
  get topics(): string[] {
    return [...this.handlers.keys(), ...this.discoveryHandlers.keys()];
  }

  /** topic0s of the discovery events */
  get discoveryTopics(): string[] {
    return [...this.discoveryHandlers.keys()];
  }

  /** Addresses the discovery events among `logs` would register, without registering anything. */
  discoveredAddresses(logs: readonly RpcLog[] | LogList, registry: ContractRegistry): string[] {
    const out: string[] = [];
    for (const { discovery } of this.discover(logs, registry)) {
      // A pool inside a singleton is an id, not a contract: its manager (a source) is read already.
      if (discovery.kind === 'pool') {
        if (!dexFacet(discovery.pool.family).singleton) out.push(discovery.pool.address);
      } else if (discovery.kind === 'token') {
        if (discovery.token.family !== 'native') out.push(discovery.token.address);
      } else out.push(discovery.address);
    }
    return out;
  }

  discover(logs: readonly RpcLog[] | LogList, registry: ContractRegistry): FoundDiscovery[] {
    const list = asLogList(logs);
    const out: FoundDiscovery[] = [];
    for (let i = 0; i < list.length; i++) {
      // The source first: a pass over 100k logs is bound by memory reads, and this skips the topics.
      const source = registry.sources.get(list.address(i));
      if (!source) continue;
      const topic0 = list.topic0(i);
      const handler = topic0 && this.discoveryHandlers.get(topic0);
      if (!handler) continue;
      const log = list.log(i);
      for (const discovery of discoveriesInScope(registry.scope, handler(log, source))) out.push({ log, discovery });
    }
    return out;
  }

  /**
   * Decodes logs[from, to) into `acc`; returns how many were malformed (wrong layout) and skipped.
   * A topic's fast handler decodes from the scanned columns when it can; else an RpcLog object is
   * made (for a scanned list) and its handler decodes that.
   */
  decode(logs: readonly RpcLog[] | LogList, acc: BatchAccumulator, from = 0, to = logs.length): number {
    const list = asLogList(logs);
    let malformed = 0;
    let lastTx = '';
    for (let i = from; i < to; i++) {
      const topic0 = list.topic0(i);
      if (topic0 === undefined) continue;
      const handler = this.handlers.get(topic0);
      if (!handler) continue;
      try {
        const fast = this.fastHandlers.get(topic0);
        if (fast !== undefined && fast(list, i, acc)) continue;
        const log = list.log(i);
        // Events keep it until the batch is written: one instance per transaction, not per log.
        if (log.transactionHash === lastTx) log.transactionHash = lastTx;
        else lastTx = log.transactionHash;
        handler(log, acc);
      } catch (e) {
        // A registered contract emitting a same-signature event with another layout: skip it.
        if (!(e instanceof RangeError)) throw e;
        malformed++;
      }
    }
    return malformed;
  }
}

function add<T>(map: Map<string, T>, topic: string, handler: T, family: string): void {
  if (map.has(topic)) throw new Error(`two adapters decode topic ${topic} (second: ${family})`);
  map.set(topic, handler);
}
