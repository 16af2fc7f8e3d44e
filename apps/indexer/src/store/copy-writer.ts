/** The COPY text-format payload of a batch's rows, written into Buffers (sent by ./copy-in.ts). */
const TAB = 9;
const NEWLINE = 10;
const CHUNK_BYTES = 1 << 20;

/** [0-9a-zA-Z-]: what hex strings, addresses, integers and decimal amounts are made of */
const PLAIN = new Uint8Array(128);
for (const c of '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-') PLAIN[c.charCodeAt(0)] = 1;
const PLAIN_TEXT = /^[0-9a-zA-Z-]*$/;
/** longer plain fields are checked with PLAIN_TEXT and copied natively, shorter ones in a loop */
const NATIVE_FROM = 16;
/** what text fields need escaped */
const SPECIAL = /[\\\n\r\t]/;

function plainBytesOf(value: string): Uint8Array {
  if (!PLAIN_TEXT.test(value)) throw unescaped(value);
  return Uint8Array.from(Buffer.from(value, 'latin1'));
}

/** values kept per textRepeating column */
const MEMO_MAX = 4096;

const textBytesOf = (value: string): Uint8Array => Uint8Array.from(Buffer.from(SPECIAL.test(value) ? copyField(value) : value, 'utf8'));

const unescaped = (s: string): Error => new Error(`value "${s.slice(0, 80)}" cannot go into COPY text format unescaped`);

/**
 * Writes a COPY text-format payload straight into Buffers, field by field: no per-row strings,
 * no joined payload string copied again into a Buffer (a 100k-row batch used to make a few
 * hundred MB of short-lived strings). Plain fields are checked while they are copied, text fields
 * are escaped, so nothing can break out of its column or row.
 */
export class CopyWriter {
  rows = 0;
  private readonly chunks: Buffer[] = [];
  private buf = Buffer.allocUnsafe(CHUNK_BYTES);
  private pos = 0;
  private lastSeconds = NaN;
  private readonly memoValues: Array<string | undefined> = [];
  private readonly memoBytes: Uint8Array[] = [];
  private readonly textMemos: Array<Map<string, Uint8Array> | undefined> = [];
  private lastTime = '';

  /** a field of [0-9a-zA-Z-] only (hex, addresses, integers, bigints); anything else throws */
  plain(value: string | number | bigint): this {
    if (typeof value === 'number') return this.int(value);
    // [-0-9] only
    if (typeof value === 'bigint') return this.ascii(String(value));
    return this.plainString(value);
  }

  /**
   * A plain string field of a column whose value often repeats from one row to the next
   * (`slot` names the column): the same string as last time costs one comparison.
   */
  plainRepeating(slot: number, value: string): this {
    if (this.memoValues[slot] !== value) {
      this.memoBytes[slot] = plainBytesOf(value);
      this.memoValues[slot] = value;
    }
    return this.bytes(this.memoBytes[slot]!);
  }

  /**
   * text(), for a column with few distinct values (token keys, types): their bytes are kept per
   * column (`slot`: its own numbers, shared with plainRepeating), up to MEMO_MAX values each.
   */
  textRepeating(slot: number, value: string): this {
    if (this.memoValues[slot] !== value) {
      const memo = (this.textMemos[slot] ??= new Map());
      let b = memo.get(value);
      if (b === undefined) {
        b = textBytesOf(value);
        if (memo.size >= MEMO_MAX) memo.clear();
        memo.set(value, b);
      }
      this.memoBytes[slot] = b;
      this.memoValues[slot] = value;
    }
    return this.bytes(this.memoBytes[slot]!);
  }

  private plainString(value: string): this {
    this.room(value.length + 1);
    const buf = this.buf;
    let pos = this.pos;
    if (value.length > NATIVE_FROM) {
      // Hashes and addresses: one regex and one native copy beat a loop over their characters.
      if (!PLAIN_TEXT.test(value)) throw unescaped(value);
      pos += buf.write(value, pos, 'latin1');
    } else {
      for (let i = 0; i < value.length; i++) {
        const c = value.charCodeAt(i);
        if (c >= 128 || PLAIN[c] === 0) throw unescaped(value);
        buf[pos++] = c;
      }
    }
    buf[pos++] = TAB;
    this.pos = pos;
    return this;
  }

  /** an integer as String() prints it, digits written straight into the buffer (other numbers: checked as text) */
  private int(value: number): this {
    if (!Number.isSafeInteger(value) || value < 0) return this.plainString(String(value));
    let digits = 1;
    for (let v = value; v >= 10; v = Math.floor(v / 10)) digits++;
    this.room(digits + 1);
    const buf = this.buf;
    let at = this.pos + digits;
    buf[at] = TAB;
    let v = value;
    do {
      buf[--at] = 48 + (v % 10);
      v = Math.floor(v / 10);
    } while (v > 0);
    this.pos += digits + 1;
    return this;
  }

  /** a field's bytes, checked already */
  private bytes(b: Uint8Array): this {
    this.room(b.length + 1);
    this.buf.set(b, this.pos);
    this.pos += b.length;
    this.buf[this.pos++] = TAB;
    return this;
  }

  /**
   * Whole rows already in COPY text format, built elsewhere (the logs scanner builds transfers'
   * rows): bytes [start, end) of `src`, `count` rows ending with their line breaks.
   */
  rowsFrom(src: Uint8Array, start: number, end: number, count: number): void {
    if (end <= start || src[end - 1] !== NEWLINE) throw new Error('COPY rows must end with a line break');
    this.room(end - start);
    this.buf.set(src.subarray(start, end), this.pos);
    this.pos += end - start;
    this.rows += count;
  }

  /** a double (or null as \N), written as JS prints it (what pg sends for a number parameter) */
  float(value: number | null): this {
    return value === null ? this.nullField() : this.ascii(String(value));
  }

  /** a timestamptz from integral unix seconds (to_timestamp() of it) */
  time(seconds: number): this {
    if (seconds !== this.lastSeconds) {
      if (!Number.isInteger(seconds)) throw new Error(`time ${seconds} is not a whole second`);
      // Rows of one block share their time: formatted once.
      this.lastTime = new Date(seconds * 1000).toISOString();
      this.lastSeconds = seconds;
    }
    return this.ascii(this.lastTime);
  }

  /** any text (or null as \N): backslash, tab and line breaks escaped, UTF-8 */
  text(value: string | null): this {
    if (value === null) return this.nullField();
    const s = SPECIAL.test(value) ? copyField(value) : value;
    // At most 3 bytes per UTF-16 unit.
    this.room(3 * s.length + 1);
    this.pos += this.buf.write(s, this.pos, 'utf8');
    this.buf[this.pos++] = TAB;
    return this;
  }

  nullField(): this {
    return this.ascii('\\N');
  }

  /** ends the row (its last field's tab becomes the line break) */
  endRow(): void {
    if (this.pos === 0) throw new Error('a COPY row needs at least one field, in the same chunk as its end');
    this.buf[this.pos - 1] = NEWLINE;
    this.rows++;
  }

  /** the payload's buffers, in order */
  finish(): Buffer[] {
    if (this.pos > 0) this.chunks.push(this.buf.subarray(0, this.pos));
    this.pos = 0;
    this.buf = Buffer.alloc(0);
    return this.chunks;
  }

  /** trusted ASCII without tabs, line breaks or backslashes (numbers, String() of a bigint, ISO times) */
  private ascii(s: string): this {
    this.room(s.length + 1);
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < s.length; i++) buf[pos++] = s.charCodeAt(i);
    buf[pos++] = TAB;
    this.pos = pos;
    return this;
  }

  /** Room for `bytes` more; a new chunk otherwise (a row may span chunks: COPY is a stream). */
  private room(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    // Fields never straddle chunks, so a row's closing tab is always in the current one.
    if (this.pos > 0) this.chunks.push(this.buf.subarray(0, this.pos));
    this.buf = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, bytes));
    this.pos = 0;
  }
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A field of COPY text format: NULL as \N, backslash, tab and line breaks escaped. */
export function copyField(value: string | null): string {
  if (value === null) return '\\N';
  return value.replace(/[\\\n\r\t]/g, (c) => ESCAPES[c]!);
}
