/**
 * A purpose-built reader of eth_getLogs replies, straight from the HTTP body's bytes, into a
 * compact columnar form (numbers in typed arrays, strings by id) that crosses threads as
 * transferable buffers (see logs-wire.ts).
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


const QUOTE = 34;
const COMMA = 44;
const COLON = 58;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const BACKSLASH = 92;

const bytes = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'latin1'));
const K_RESULT = bytes('result');
const K_ERROR = bytes('error');
const K_ADDRESS = bytes('address');
const K_TOPICS = bytes('topics');
/** keccak256('Transfer(address,address,uint256)'): the ERC-20 Transfer, whose rows the scanner builds (decode/topics.ts has it too; a test keeps them equal) */
export const ERC20_TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const K_DATA = bytes('data');
const K_BLOCK_HASH = bytes('blockHash');
const K_BLOCK_NUMBER = bytes('blockNumber');
const K_LOG_INDEX = bytes('logIndex');
const K_TX_HASH = bytes('transactionHash');
const K_REMOVED = bytes('removed');
const LITERALS = ['true', 'false', 'null'].map(bytes);
const TRUE = LITERALS[0]!;

/** hex digit value of a byte, -1 for anything else */
const HEX = new Int8Array(256).fill(-1);
for (let i = 0; i < 10; i++) HEX[48 + i] = i;
for (let i = 0; i < 6; i++) {
  HEX[97 + i] = 10 + i;
  HEX[65 + i] = 10 + i;
}
const NUMBER_CHAR = new Uint8Array(256);
for (const c of '0123456789+-.eE') NUMBER_CHAR[c.charCodeAt(0)] = 1;

/** The reply did not have the simple shape: take the generic path. */
class NotSimple extends Error {}
const NOT_SIMPLE = new NotSimple();

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

/**
 * The shared strings (contract addresses, lowercased; topics): the same text gets the same id,
 * and the receiving side keeps one string instance per id. Bounded: it starts over (telling the
 * receiver) when it holds `max` strings, between replies.
 */
export class StringTable {
  /**
   * Open addressing over the ids (linear probing; a slot holds an id or -1), twice as many slots
   * as the table holds strings at most: a typed-array probe instead of a Map lookup per string.
   */
  private slots: Int32Array;
  private mask: number;
  /** ids in `slots` */
  private slotted = 0;
  /** each id's hash (probes compare it before the bytes) */
  private hashes: number[] = [];
  /** each id's bytes as they appear in replies (address forms: none) */
  private raw: Array<Uint8Array | undefined> = [];
  /** each id's string (as the receiver gets it) */
  private strings: string[] = [];
  /** each id's string as bytes when it is a plain COPY field ([0-9a-zA-Z-]), else undefined */
  private plainBytes: Array<Uint8Array | undefined> = [];
  /** topic id -> id of its address form, -1 when it has none (not 66 characters) */
  private forms: number[] = [];
  private readonly formIds = new Map<string, number>();
  /** id of the ERC-20 Transfer topic, once seen */
  transferTopic = -1;
  /** strings added since the last take() */
  private added: string[] = [];
  private resetPending = false;

  constructor(private readonly max = 200_000) {
    let size = 1024;
    while (size < 2 * max) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.mask = size - 1;
  }

  /** Called before each reply: the table starts over only between replies (their ids stay valid). */
  beginReply(): void {
    if (this.raw.length < this.max) return;
    this.slots.fill(-1);
    this.slotted = 0;
    this.hashes = [];
    this.formIds.clear();
    this.raw = [];
    this.strings = [];
    this.plainBytes = [];
    this.forms = [];
    this.transferTopic = -1;
    this.added = [];
    this.resetPending = true;
  }

  /** the id of body[start, end) (its string lowercased when `lower`) */
  id(body: Buffer, start: number, end: number, lower: boolean): number {
    const len = end - start;
    // the length, the case flag and the last (up to) 12 bytes: hex of addresses and hashes is random there
    let h = lower ? ~len : len;
    for (let i = end - 1, stop = Math.max(start, end - 12); i >= stop; i--) h = (Math.imul(h, 0x01000193) ^ body[i]!) | 0;
    const slots = this.slots;
    const mask = this.mask;
    // Fibonacci hashing spreads the hash's bits over the slot index.
    let slot = (Math.imul(h, 0x9e3779b1) >>> 0) & mask;
    for (;;) {
      const id = slots[slot]!;
      if (id < 0) {
        const added = this.add(body, start, end, lower, h);
        slots[slot] = added;
        // At most three quarters full, so a probe always ends at a free slot (one huge reply can
        // add more strings than `max` before the table may start over).
        if (++this.slotted * 4 > slots.length * 3) this.grow();
        return added;
      }
      if (this.hashes[id] === h && this.same(id, body, start, len)) return id;
      slot = (slot + 1) & mask;
    }
  }

  /** Twice the slots, every slotted id placed again. */
  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = slots.length - 1;
    for (let id = 0; id < this.raw.length; id++) {
      if (this.raw[id] === undefined) continue;
      let slot = (Math.imul(this.hashes[id]!, 0x9e3779b1) >>> 0) & mask;
      while (slots[slot]! >= 0) slot = (slot + 1) & mask;
      slots[slot] = id;
    }
    this.slots = slots;
    this.mask = mask;
  }

  /** what the receiver needs to mirror the table since the last call */
  take(): { newStrings: string[]; reset: boolean } {
    const out = { newStrings: this.added, reset: this.resetPending };
    this.added = [];
    this.resetPending = false;
    return out;
  }

  /** the string of an id */
  text(id: number): string {
    return this.strings[id]!;
  }

  /** the string of an id as bytes, when it is a plain COPY field */
  plain(id: number): Uint8Array | undefined {
    return this.plainBytes[id];
  }

  /** the id of what topicAddress() makes of topic `id` (`0x` + its last 40 digits, lowercased), -1 if the topic is not 66 characters */
  addressForm(id: number): number {
    let form = this.forms[id];
    if (form !== undefined) return form;
    const topic = this.strings[id]!;
    form = -1;
    if (topic.length === 66) {
      const address = `0x${topic.slice(26)}`.toLowerCase();
      form = this.formIds.get(address) ?? -1;
      if (form < 0) {
        form = this.push(undefined, address);
        this.formIds.set(address, form);
      }
    }
    this.forms[id] = form;
    return form;
  }

  private same(id: number, body: Buffer, start: number, len: number): boolean {
    const r = this.raw[id];
    if (r === undefined || r.length !== len) return false;
    // from the end: where two different hex strings most likely differ already
    for (let i = len - 1; i >= 0; i--) if (r[i] !== body[start + i]) return false;
    return true;
  }

  private push(raw: Uint8Array | undefined, value: string, hash = 0): number {
    const id = this.raw.length;
    this.hashes.push(hash);
    this.raw.push(raw);
    this.strings.push(value);
    this.plainBytes.push(plainBytesOf(value));
    this.added.push(value);
    return id;
  }

  private add(body: Buffer, start: number, end: number, lower: boolean, h: number): number {
    const s = body.toString('latin1', start, end);
    const id = this.push(Uint8Array.prototype.slice.call(body, start, end), lower ? s.toLowerCase() : s, h);
    if (!lower && s === ERC20_TRANSFER_TOPIC) this.transferTopic = id;
    return id;
  }
}

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

/** [0-9a-zA-Z-] only: what the COPY writer takes as a plain field (a transfer with anything else goes the generic way) */
const PLAIN_TEXT = /^[0-9a-zA-Z-]*$/;
const plainBytesOf = (s: string): Uint8Array | undefined => (PLAIN_TEXT.test(s) ? Uint8Array.from(Buffer.from(s, 'latin1')) : undefined);
const TAB = 9;
const NEWLINE = 10;

/** a non-negative safe integer's digits at `p`; returns the end */
function writeInt(r: Uint8Array, p: number, n: number): number {
  let digits = 1;
  for (let v = n; v >= 10; v = Math.floor(v / 10)) digits++;
  let at = p + digits;
  let v = n;
  do {
    r[--at] = 48 + (v % 10);
    v = Math.floor(v / 10);
  } while (v > 0);
  return p + digits;
}

function copyBytes(r: Uint8Array, p: number, b: Uint8Array): number {
  for (let i = 0; i < b.length; i++) r[p + i] = b[i]!;
  return p + b.length;
}

/** A 256-bit value (8 limbs at `at`) as a number when it is below 2^53 (a double holds it exactly), else -1. */
function safeValue(limbs: Uint32Array, at: number): number {
  let high = 0;
  for (let limb = 2; limb < 8; limb++) high |= limbs[at + limb]!;
  return high === 0 && limbs[at + 1]! < 0x200000 ? limbs[at + 1]! * 0x100000000 + limbs[at]! : -1;
}

/** The decimal digits of a 256-bit value from its hex digits at data[dataFrom + 2, + 66). */
function bigDecimal(data: Uint8Array, dataFrom: number): string {
  return BigInt(`0x${Buffer.from(data.buffer, data.byteOffset + dataFrom + 2, 64).toString('latin1')}`).toString();
}

/** Grows by doubling. */
class Column<T extends Float64Array | Int32Array | Uint32Array | Uint8Array> {
  length = 0;
  constructor(
    public buf: T,
    private readonly make: (n: number) => T,
  ) {}

  room(n: number): T {
    if (this.length + n > this.buf.length) {
      const next = this.make(Math.max(this.buf.length * 2, this.length + n));
      next.set(this.buf.subarray(0, this.length) as never);
      this.buf = next;
    }
    return this.buf;
  }

  done(): T {
    return this.buf.slice(0, this.length) as T;
  }
}

class Scanner {
  private pos = 0;
  /** [start, end) of the last string value read */
  private start = 0;
  private end = 0;
  private count = 0;
  private readonly meta: Column<Float64Array>;
  private readonly topicIds: Column<Int32Array>;
  private readonly data: Column<Uint8Array>;
  private readonly dataEnds: Column<Int32Array>;
  private readonly hashes: string[] = [];
  /** each hash as bytes when it is a plain COPY field */
  private readonly hashBytes: Array<Uint8Array | undefined> = [];
  private transfers = 0;
  private readonly transferOf: Column<Int32Array>;
  private readonly transferFrom: Column<Int32Array>;
  private readonly transferTo: Column<Int32Array>;
  private readonly transferLimbs: Column<Uint32Array>;
  private readonly rows: Column<Uint8Array>;
  private readonly rowEnds: Column<Int32Array>;
  /** where the last block / transaction hash is in the body, its length and its id in `hashes` */
  private blockHashAt = -1;
  private blockHashLength = 0;
  private blockHashId = -1;
  private txHashAt = -1;
  private txHashLength = 0;
  private txHashId = -1;

  constructor(
    private readonly b: Buffer,
    private readonly strings: StringTable,
    /** the network field of transfers' COPY rows (undefined: no fast path) */
    private readonly network: Uint8Array | undefined,
  ) {
    // ~650 bytes of JSON per log on the bench chain: sized for that, grown when needed.
    const guess = Math.max(16, Math.ceil(b.length / 600));
    this.meta = new Column(new Float64Array(guess * META_FIELDS), (n) => new Float64Array(n));
    this.topicIds = new Column(new Int32Array(guess * 3), (n) => new Int32Array(n));
    this.data = new Column(new Uint8Array(guess * 130), (n) => new Uint8Array(n));
    this.dataEnds = new Column(new Int32Array(guess), (n) => new Int32Array(n));
    this.transferOf = new Column(new Int32Array(guess), (n) => new Int32Array(n));
    this.transferFrom = new Column(new Int32Array(guess), (n) => new Int32Array(n));
    this.transferTo = new Column(new Int32Array(guess), (n) => new Int32Array(n));
    this.transferLimbs = new Column(new Uint32Array(guess * 8), (n) => new Uint32Array(n));
    this.rows = new Column(new Uint8Array(guess * 200), (n) => new Uint8Array(n));
    this.rowEnds = new Column(new Int32Array(guess), (n) => new Int32Array(n));
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
      transfer: this.transferOf.done(),
      transferFrom: this.transferFrom.done(),
      transferTo: this.transferTo.done(),
      transferLimbs: this.transferLimbs.done(),
      rows: this.rows.done(),
      rowEnds: this.rowEnds.done(),
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
    this.transferOf.room(1)[this.transferOf.length++] = this.transfer(blockNumber, logIndex, address, txHash, topicsFrom, dataFrom);
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
    const limbs = this.transferLimbs.room(8);
    const at = this.transferLimbs.length;
    // 8 hex digits per 32-bit limb, most significant first in the text
    for (let limb = 0; limb < 8; limb++) {
      let v = 0;
      for (let d = dataFrom + 2 + (7 - limb) * 8, end = d + 8; d < end; d++) {
        const x = HEX[data[d]!]!;
        if (x < 0) return -1;
        v = v * 16 + x;
      }
      limbs[at + limb] = v;
    }
    this.transferLimbs.length += 8;
    const k = this.transfers++;
    this.transferFrom.room(1)[k] = from;
    this.transferFrom.length++;
    this.transferTo.room(1)[k] = to;
    this.transferTo.length++;
    // Below 2^53 its digits are written straight into the row (no string per transfer).
    const small = safeValue(limbs, at);
    const big = small < 0 ? bigDecimal(data, dataFrom) : '';
    // network, block, log index, tx hash, token, from, to, value (decimal): the COPY writer's bytes
    const rows = this.rows;
    const r = rows.room(56 + network.length + tx.length + token.length + fromBytes.length + toBytes.length + big.length);
    let p = copyBytes(r, rows.length, network);
    r[p++] = TAB;
    p = writeInt(r, p, blockNumber);
    r[p++] = TAB;
    p = writeInt(r, p, logIndex);
    r[p++] = TAB;
    p = copyBytes(r, p, tx);
    r[p++] = TAB;
    p = copyBytes(r, p, token);
    r[p++] = TAB;
    p = copyBytes(r, p, fromBytes);
    r[p++] = TAB;
    p = copyBytes(r, p, toBytes);
    r[p++] = TAB;
    if (small >= 0) p = writeInt(r, p, small);
    else for (let i = 0; i < big.length; i++) r[p++] = big.charCodeAt(i);
    r[p++] = NEWLINE;
    rows.length = p;
    this.rowEnds.room(1)[k] = p;
    this.rowEnds.length++;
    return k;
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

  /** the last string read has the same bytes as the `len` bytes at `at` */
  private sameAs(at: number, len: number): boolean {
    if (this.end - this.start !== len) return false;
    const b = this.b;
    const s = this.start;
    for (let i = len - 1; i >= 0; i--) if (b[s + i] !== b[at + i]) return false;
    return true;
  }

  /** a hex quantity string ("0x1a") as a number, as parseInt(v, 16) reads a well-formed one */
  private quantity(): number {
    this.string();
    const s = this.start;
    const e = this.end;
    const b = this.b;
    if (e - s < 3 || e - s > 15 || b[s] !== 48 || b[s + 1] !== 120) throw NOT_SIMPLE;
    let v = 0;
    for (let i = s + 2; i < e; i++) {
      const d = HEX[b[i]!]!;
      if (d < 0) throw NOT_SIMPLE;
      v = v * 16 + d;
    }
    return v;
  }

  /** `true` or `false`; any other value (not a boolean) is skipped and counts as not removed */
  private literalTrue(): boolean {
    this.ws();
    if (this.bytesAre(this.pos, this.pos + 4, TRUE)) {
      this.pos += 4;
      return true;
    }
    this.skipValue();
    return false;
  }

  /** a string value: [start, end) of its content in this.start, this.end */
  private string(): void {
    this.ws();
    const b = this.b;
    if (b[this.pos] !== QUOTE) throw NOT_SIMPLE;
    const start = this.pos + 1;
    const end = b.indexOf(QUOTE, start);
    if (end < 0) throw NOT_SIMPLE;
    this.start = start;
    this.end = end;
    this.pos = end + 1;
  }

  /** an object key (in this.start, this.end) and its colon; keys are short: found without a native call */
  private key(): void {
    this.ws();
    const b = this.b;
    if (b[this.pos] !== QUOTE) throw NOT_SIMPLE;
    const start = this.pos + 1;
    let end = start;
    const limit = Math.min(b.length, start + 32);
    while (end < limit && b[end] !== QUOTE) end++;
    if (end === limit) {
      end = b.indexOf(QUOTE, start);
      if (end < 0) throw NOT_SIMPLE;
    }
    this.start = start;
    this.end = end;
    this.pos = end + 1;
    this.expect(COLON);
  }

  /** the last string read is `k` */
  private keyIs(k: Uint8Array): boolean {
    return this.bytesAre(this.start, this.end, k);
  }

  private bytesAre(s: number, e: number, k: Uint8Array): boolean {
    if (e - s !== k.length) return false;
    const b = this.b;
    for (let i = 0; i < k.length; i++) if (b[s + i] !== k[i]) return false;
    return true;
  }

  /** after a member: true at the closing bracket `close`, false at a comma */
  private separator(close: number): boolean {
    this.ws();
    const c = this.b[this.pos++];
    if (c === COMMA) return false;
    if (c === close) return true;
    throw NOT_SIMPLE;
  }

  /** any JSON value (no escapes in strings: checked for the whole body) */
  private skipValue(): void {
    this.ws();
    const b = this.b;
    const c = b[this.pos];
    if (c === QUOTE) {
      this.string();
      return;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      let depth = 0;
      for (let i = this.pos; i < b.length; i++) {
        const x = b[i];
        if (x === QUOTE) {
          i = b.indexOf(QUOTE, i + 1);
          if (i < 0) throw NOT_SIMPLE;
        } else if (x === OPEN_OBJECT || x === OPEN_ARRAY) depth++;
        else if (x === CLOSE_OBJECT || x === CLOSE_ARRAY) {
          if (--depth === 0) {
            this.pos = i + 1;
            return;
          }
        }
      }
      throw NOT_SIMPLE;
    }
    // true, false, null, or a number
    for (const literal of LITERALS) {
      if (this.bytesAre(this.pos, this.pos + literal.length, literal)) {
        this.pos += literal.length;
        return;
      }
    }
    let i = this.pos;
    while (i < b.length && NUMBER_CHAR[b[i]!] === 1) i++;
    if (i === this.pos) throw NOT_SIMPLE;
    this.pos = i;
  }

  private expect(c: number): void {
    this.ws();
    if (this.b[this.pos] !== c) throw NOT_SIMPLE;
    this.pos++;
  }

  private peek(): number | undefined {
    this.ws();
    return this.b[this.pos];
  }

  private ws(): void {
    const b = this.b;
    let p = this.pos;
    for (;;) {
      const c = b[p];
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
      p++;
    }
    this.pos = p;
  }
}

/** The buffers of a scanned reply, to transfer (not copy) to the receiving thread. */
export function transferList(logs: ScannedLogs): ArrayBuffer[] {
  const views = [logs.meta, logs.topics, logs.data, logs.dataEnds, logs.transfer, logs.transferFrom, logs.transferTo, logs.transferLimbs, logs.rows, logs.rowEnds];
  return views.map((v) => v.buffer as ArrayBuffer);
}
