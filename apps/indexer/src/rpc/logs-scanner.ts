/**
 * A purpose-built reader of eth_getLogs replies, straight from the HTTP body's bytes, into a
 * compact columnar form (ScannedLogs in scanned-logs.ts: numbers in typed arrays, strings by id)
 * that crosses threads as transferable buffers (see logs-wire.ts).
 *
 * The generic path (body -> UTF-16 string -> JSON.parse -> an object graph with ~10 fresh strings
 * per log -> standardizeLogs) was a fifth of the indexer's CPU on a 1M-event backfill, plus much
 * of its garbage collection. A reply is regular: an array of flat objects whose values are hex
 * strings, a topics array and a boolean. This scanner walks the bytes once, finds string ends
 * with native indexOf, reads block numbers and log indexes without making strings, interns
 * what repeats (contract addresses and topics: ids in a table the receiver mirrors; block and
 * transaction hashes: per reply) and copies each log's `data` into one byte array.
 *
 * Anything outside that shape (escapes, a JSON-RPC error, a value of an unexpected type, a
 * missing field, a malformed quantity) makes it return undefined: the caller then takes the
 * generic path, so every odd reply gets exactly the old handling and error messages.
 */
import { Column } from './column';
import { BACKSLASH, bytes, CLOSE_ARRAY, CLOSE_OBJECT, JsonCursor, NOT_SIMPLE, OPEN_ARRAY, OPEN_OBJECT } from './json-cursor';
import { META_FIELDS, M_ADDRESS, M_BLOCK, M_BLOCK_HASH, M_LOG_INDEX, M_TOPICS_END, M_TX_HASH, type ScannedLogs } from './scanned-logs';
import { plainBytesOf, type StringTable } from './string-table';
import { TransferColumns } from './transfer-rows';

const K_RESULT = bytes('result');
const K_ERROR = bytes('error');
const K_ADDRESS = bytes('address');
const K_TOPICS = bytes('topics');
const K_DATA = bytes('data');
const K_BLOCK_HASH = bytes('blockHash');
const K_BLOCK_NUMBER = bytes('blockNumber');
const K_LOG_INDEX = bytes('logIndex');
const K_TX_HASH = bytes('transactionHash');
const K_REMOVED = bytes('removed');

/**
 * The logs of an eth_getLogs reply body, or undefined when it is not of the simple shape (see
 * the file comment). Removed logs are dropped; order and duplicates are checked by the receiver.
 * On undefined, `strings` may hold ids of a partly read reply: harmless, they are valid strings.
 */
export function scanLogsReply(body: Buffer, strings: StringTable, network = ''): ScannedLogs | undefined {
  // No escapes anywhere: every string ends at the next quote.
  if (body.indexOf(BACKSLASH) >= 0) return undefined;
  strings.beginReply();
  try {
    const s = new Scanner(body, strings, network === '' ? undefined : plainBytesOf(network));
    s.reply();
    return s.finish();
  } catch (e) {
    if (e === NOT_SIMPLE) return undefined;
    throw e;
  }
}

class Scanner extends JsonCursor {
  private count = 0;
  private readonly meta: Column<Float64Array>;
  private readonly topicIds: Column<Int32Array>;
  private readonly data: Column<Uint8Array>;
  private readonly dataEnds: Column<Int32Array>;
  private readonly hashes: string[] = [];
  /** each hash as bytes when it is a plain COPY field */
  private readonly hashBytes: Array<Uint8Array | undefined> = [];
  private readonly transfers: TransferColumns;
  /** where the last block / transaction hash is in the body, its length and its id in `hashes` */
  private blockHashAt = -1;
  private blockHashLength = 0;
  private blockHashId = -1;
  private txHashAt = -1;
  private txHashLength = 0;
  private txHashId = -1;

  constructor(
    b: Buffer,
    private readonly strings: StringTable,
    /** the network field of transfers' COPY rows (undefined: no fast path) */
    private readonly network: Uint8Array | undefined,
  ) {
    super(b);
    // ~650 bytes of JSON per log on the bench chain: sized for that, grown when needed.
    const guess = Math.max(16, Math.ceil(b.length / 600));
    this.meta = new Column(new Float64Array(guess * META_FIELDS), (n) => new Float64Array(n));
    this.topicIds = new Column(new Int32Array(guess * 3), (n) => new Int32Array(n));
    this.data = new Column(new Uint8Array(guess * 130), (n) => new Uint8Array(n));
    this.dataEnds = new Column(new Int32Array(guess), (n) => new Int32Array(n));
    this.transfers = new TransferColumns(guess);
  }

  finish(): ScannedLogs {
    const { newStrings, reset } = this.strings.take();
    return {
      count: this.count,
      meta: this.meta.done(),
      topics: this.topicIds.done(),
      data: this.data.done(),
      dataEnds: this.dataEnds.done(),
      hashes: this.hashes,
      ...this.transfers.done(),
      newStrings,
      reset,
    };
  }

  reply(): void {
    let seen = false;
    this.expect(OPEN_OBJECT);
    if (this.peek() !== CLOSE_OBJECT) {
      for (;;) {
        this.key();
        if (this.keyIs(K_RESULT)) {
          if (seen) throw NOT_SIMPLE;
          seen = true;
          this.logs();
        }
        // A JSON-RPC error (even next to a result) is the generic path's to report.
        else if (this.keyIs(K_ERROR)) throw NOT_SIMPLE;
        else this.skipValue();
        if (this.separator(CLOSE_OBJECT)) break;
      }
    } else this.pos++;
    this.ws();
    if (this.pos !== this.b.length || !seen) throw NOT_SIMPLE;
  }

  private logs(): void {
    this.expect(OPEN_ARRAY);
    if (this.peek() === CLOSE_ARRAY) {
      this.pos++;
      return;
    }
    for (;;) {
      this.log();
      if (this.separator(CLOSE_ARRAY)) return;
    }
  }

  /** one log object, appended to the columns unless it is marked removed */
  private log(): void {
    this.expect(OPEN_OBJECT);
    const topicsFrom = this.topicIds.length;
    const dataFrom = this.data.length;
    let address = -1;
    let topics = false;
    let data = false;
    let blockHash = -1;
    let txHash = -1;
    let blockNumber = -1;
    let logIndex = -1;
    let removed = false;
    const b = this.b;
    if (this.peek() === CLOSE_OBJECT) throw NOT_SIMPLE;
    for (;;) {
      this.key();
      const len = this.end - this.start;
      if (len === 7 && b[this.start] === 97 && this.keyIs(K_ADDRESS)) {
        address = this.interned(true);
      } else if (len === 6 && this.keyIs(K_TOPICS)) {
        // a repeated key replaces the earlier value, as in JSON.parse
        this.topicIds.length = topicsFrom;
        this.topics();
        topics = true;
      } else if (len === 4 && this.keyIs(K_DATA)) {
        this.string();
        this.data.length = dataFrom;
        const n = this.end - this.start;
        this.data.room(n).set(b.subarray(this.start, this.end), this.data.length);
        this.data.length += n;
        data = true;
      } else if (len === 9 && this.keyIs(K_BLOCK_HASH)) blockHash = this.blockHashValue();
      else if (len === 11 && this.keyIs(K_BLOCK_NUMBER)) blockNumber = this.quantity();
      else if (len === 8 && this.keyIs(K_LOG_INDEX)) logIndex = this.quantity();
      else if (len === 15 && this.keyIs(K_TX_HASH)) txHash = this.txHashValue();
      else if (len === 7 && this.keyIs(K_REMOVED)) removed = this.literalTrue();
      else this.skipValue();
      if (this.separator(CLOSE_OBJECT)) break;
    }
    if (removed) {
      this.topicIds.length = topicsFrom;
      this.data.length = dataFrom;
      return;
    }
    if (address < 0 || !topics || !data || blockHash < 0 || txHash < 0 || blockNumber < 0 || logIndex < 0) throw NOT_SIMPLE;
    const m = this.meta.room(META_FIELDS);
    const at = this.meta.length;
    m[at + M_BLOCK] = blockNumber;
    m[at + M_LOG_INDEX] = logIndex;
    m[at + M_ADDRESS] = address;
    m[at + M_BLOCK_HASH] = blockHash;
    m[at + M_TX_HASH] = txHash;
    m[at + M_TOPICS_END] = this.topicIds.length;
    this.meta.length += META_FIELDS;
    this.dataEnds.room(1)[this.dataEnds.length++] = this.data.length;
    this.transfers.logTransfer(this.transfer(blockNumber, logIndex, address, txHash, topicsFrom, dataFrom));
    this.count++;
  }

  /**
   * Log `count` (just appended) as a transfer: its index in the transfer columns, or -1 when it
   * is not of the shape the receiver's fast path decodes exactly as the generic decoder would.
   */
  private transfer(blockNumber: number, logIndex: number, address: number, txHash: number, topicsFrom: number, dataFrom: number): number {
    const t = this.topicIds;
    const network = this.network;
    if (!network || t.length - topicsFrom !== 3 || t.buf[topicsFrom] !== this.strings.transferTopic) return -1;
    const data = this.data.buf;
    // uintWord(data, 0): digits 2..66 of the data text, all hex
    if (this.data.length - dataFrom < 66) return -1;
    const from = this.strings.addressForm(t.buf[topicsFrom + 1]!);
    const to = this.strings.addressForm(t.buf[topicsFrom + 2]!);
    if (from < 0 || to < 0) return -1;
    const tx = this.hashBytes[txHash];
    const token = this.strings.plain(address);
    const fromBytes = this.strings.plain(from);
    const toBytes = this.strings.plain(to);
    if (!tx || !token || !fromBytes || !toBytes) return -1;
    return this.transfers.add(data, dataFrom, from, to, network, blockNumber, logIndex, tx, token, fromBytes, toBytes);
  }

  private topics(): void {
    this.expect(OPEN_ARRAY);
    if (this.peek() === CLOSE_ARRAY) {
      this.pos++;
      return;
    }
    for (;;) {
      const id = this.interned(false);
      this.topicIds.room(1)[this.topicIds.length++] = id;
      if (this.separator(CLOSE_ARRAY)) return;
    }
  }

  private interned(lower: boolean): number {
    this.string();
    return this.strings.id(this.b, this.start, this.end, lower);
  }

  /** the block hash's id in `hashes` (logs come block by block: compared with the last one first) */
  private blockHashValue(): number {
    this.string();
    if (this.blockHashAt >= 0 && this.sameAs(this.blockHashAt, this.blockHashLength)) return this.blockHashId;
    this.blockHashAt = this.start;
    this.blockHashLength = this.end - this.start;
    this.blockHashId = this.addHash();
    return this.blockHashId;
  }

  private txHashValue(): number {
    this.string();
    if (this.txHashAt >= 0 && this.sameAs(this.txHashAt, this.txHashLength)) return this.txHashId;
    this.txHashAt = this.start;
    this.txHashLength = this.end - this.start;
    this.txHashId = this.addHash();
    return this.txHashId;
  }

  private addHash(): number {
    const h = this.b.toString('latin1', this.start, this.end);
    this.hashBytes.push(plainBytesOf(h));
    return this.hashes.push(h) - 1;
  }
}
