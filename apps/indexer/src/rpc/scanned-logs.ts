/**
 * The columnar form of one eth_getLogs reply that logs-scanner.ts builds (numbers in typed
 * arrays, strings by id) and that crosses threads as transferable buffers (see logs-wire.ts).
 */

/** Fields per log in ScannedLogs.meta. */
export const META_FIELDS = 6;
export const M_BLOCK = 0;
export const M_LOG_INDEX = 1;
export const M_ADDRESS = 2;
export const M_BLOCK_HASH = 3;
export const M_TX_HASH = 4;
export const M_TOPICS_END = 5;

/** One reply's logs, columnar. */
export interface ScannedLogs {
  count: number;
  /**
   * META_FIELDS numbers per log: block number, log index, address (shared string id), block hash
   * and transaction hash (ids in `hashes`), end of its topics in `topics` (they start where the
   * previous log's end)
   */
  meta: Float64Array;
  /** topics as shared string ids */
  topics: Int32Array;
  /** every log's data (hex text) back to back; log i is [dataEnds[i-1], dataEnds[i]) */
  data: Uint8Array;
  dataEnds: Int32Array;
  /** block and transaction hashes of this reply, by id */
  hashes: string[];
  /**
   * Transfer-shaped logs (ERC-20 Transfer topic, three 32-byte topics, a whole first data word
   * of hex digits, plain hashes): what their decoding and their COPY row need, worked out here.
   * `transfer[i]` is log i's index k in the columns below, or -1.
   */
  transfer: Int32Array;
  /** string ids of the holder addresses (`0x` + the topic's last 40 digits, lowercased) */
  transferFrom: Int32Array;
  transferTo: Int32Array;
  /** the value (first data word) as 8 little-endian 32-bit limbs per transfer */
  transferLimbs: Uint32Array;
  /**
   * each transfer's whole COPY row: network (as the request names it), block, log index, tx
   * hash, token, from, to, value (decimal), tab-separated, with the line break; transfer k is
   * [rowEnds[k-1], rowEnds[k]); none when the network is not a plain field
   */
  rows: Uint8Array;
  rowEnds: Int32Array;
  /** the shared strings this reply added (ids table.length, ... after the receiver applied `reset`) */
  newStrings: string[];
  /** the shared table started over: the receiver drops its copy before adding newStrings */
  reset: boolean;
}

/** The buffers of a scanned reply, to transfer (not copy) to the receiving thread. */
export function transferList(logs: ScannedLogs): ArrayBuffer[] {
  const views = [
    logs.meta,
    logs.topics,
    logs.data,
    logs.dataEnds,
    logs.transfer,
    logs.transferFrom,
    logs.transferTo,
    logs.transferLimbs,
    logs.rows,
    logs.rowEnds,
  ];
  return views.map((v) => v.buffer as ArrayBuffer);
}
