/**
 * A cursor over JSON bytes for the eth_getLogs scanner (logs-scanner.ts): reads strings, keys,
 * hex quantities and separators in place, and skips any other value, without making strings.
 * It knows only the simple shape: a string with an escape (checked for the whole body by the
 * scanner), a value of an unexpected type or a malformed one throws NOT_SIMPLE, and the
 * scanner's caller then takes the generic path.
 */

const QUOTE = 34;
const COMMA = 44;
const COLON = 58;
export const OPEN_ARRAY = 91;
export const CLOSE_ARRAY = 93;
export const OPEN_OBJECT = 123;
export const CLOSE_OBJECT = 125;
export const BACKSLASH = 92;

export const bytes = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'latin1'));
const LITERALS = ['true', 'false', 'null'].map(bytes);
const TRUE = LITERALS[0]!;

/** hex digit value of a byte, -1 for anything else */
export const HEX = new Int8Array(256).fill(-1);
for (let i = 0; i < 10; i++) HEX[48 + i] = i;
for (let i = 0; i < 6; i++) {
  HEX[97 + i] = 10 + i;
  HEX[65 + i] = 10 + i;
}
const NUMBER_CHAR = new Uint8Array(256);
for (const c of '0123456789+-.eE') NUMBER_CHAR[c.charCodeAt(0)] = 1;

/** The reply did not have the simple shape: take the generic path. */
class NotSimple extends Error {}
export const NOT_SIMPLE = new NotSimple();

export class JsonCursor {
  protected pos = 0;
  /** [start, end) of the last string value read */
  protected start = 0;
  protected end = 0;

  constructor(protected readonly b: Buffer) {}

  /** a hex quantity string ("0x1a") as a number, as parseInt(v, 16) reads a well-formed one */
  protected quantity(): number {
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
  protected literalTrue(): boolean {
    this.ws();
    if (this.bytesAre(this.pos, this.pos + 4, TRUE)) {
      this.pos += 4;
      return true;
    }
    this.skipValue();
    return false;
  }

  /** a string value: [start, end) of its content in this.start, this.end */
  protected string(): void {
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
  protected key(): void {
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
  protected keyIs(k: Uint8Array): boolean {
    return this.bytesAre(this.start, this.end, k);
  }

  private bytesAre(s: number, e: number, k: Uint8Array): boolean {
    if (e - s !== k.length) return false;
    const b = this.b;
    for (let i = 0; i < k.length; i++) if (b[s + i] !== k[i]) return false;
    return true;
  }

  /** after a member: true at the closing bracket `close`, false at a comma */
  protected separator(close: number): boolean {
    this.ws();
    const c = this.b[this.pos++];
    if (c === COMMA) return false;
    if (c === close) return true;
    throw NOT_SIMPLE;
  }

  /** any JSON value (no escapes in strings: checked for the whole body) */
  protected skipValue(): void {
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

  protected expect(c: number): void {
    this.ws();
    if (this.b[this.pos] !== c) throw NOT_SIMPLE;
    this.pos++;
  }

  protected peek(): number | undefined {
    this.ws();
    return this.b[this.pos];
  }

  protected ws(): void {
    const b = this.b;
    let p = this.pos;
    for (;;) {
      const c = b[p];
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
      p++;
    }
    this.pos = p;
  }

  /** the last string read has the same bytes as the `len` bytes at `at` */
  protected sameAs(at: number, len: number): boolean {
    if (this.end - this.start !== len) return false;
    const b = this.b;
    const s = this.start;
    for (let i = len - 1; i >= 0; i--) if (b[s + i] !== b[at + i]) return false;
    return true;
  }
}
