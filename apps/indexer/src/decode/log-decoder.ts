import type { RpcLog } from '@tokensvc/chain';
import type { DiscoveryHandler, LogHandler, ProtocolAdapter } from '../adapters';
import type { ContractRegistry } from '../registry/contract-registry';
import type { Discovery } from '../registry/registry.types';
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
  private readonly discoveryHandlers = new Map<string, DiscoveryHandler>();

  constructor(adapters: readonly ProtocolAdapter[]) {
    for (const a of adapters) {
      for (const [topic, h] of Object.entries(a.handlers)) add(this.handlers, topic, h, a.family);
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
  discoveredAddresses(logs: readonly RpcLog[], registry: ContractRegistry): string[] {
    const out: string[] = [];
    for (const { discovery } of this.discover(logs, registry)) {
      if (discovery.kind === 'pool') out.push(discovery.pool.address);
      else if (discovery.kind === 'token') {
        if (discovery.token.family !== 'native') out.push(discovery.token.address);
      } else out.push(discovery.address);
    }
    return out;
  }

  discover(logs: readonly RpcLog[], registry: ContractRegistry): FoundDiscovery[] {
    const out: FoundDiscovery[] = [];
    for (const log of logs) {
      // The source first: a pass over 100k logs is bound by memory reads, and this skips the topics.
      const source = registry.sources.get(log.address);
      const topic0 = source && log.topics[0];
      const handler = topic0 && this.discoveryHandlers.get(topic0);
      if (!source || !handler) continue;
      for (const discovery of handler(log, source)) out.push({ log, discovery });
    }
    return out;
  }

  /** Decodes logs[from, to) into `acc`; returns how many were malformed (wrong layout) and skipped. */
  decode(logs: readonly RpcLog[], acc: BatchAccumulator, from = 0, to = logs.length): number {
    let malformed = 0;
    let lastTx = '';
    for (let i = from; i < to; i++) {
      const log = logs[i]!;
      // Events keep it until the batch is written: one instance per transaction, not per log.
      if (log.transactionHash === lastTx) log.transactionHash = lastTx;
      else lastTx = log.transactionHash;
      const topic0 = log.topics[0];
      if (topic0 === undefined) continue;
      const handler = this.handlers.get(topic0);
      if (!handler) continue;
      try {
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
