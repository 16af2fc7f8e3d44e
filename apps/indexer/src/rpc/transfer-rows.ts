/**
 * The transfer fast path's columns of one scanned reply (ScannedLogs.transfer and what follows
 * it): for each Transfer-shaped log, its holders, its value as limbs and its whole COPY row.
 */
import { Column } from './column';
import { HEX } from './json-cursor';
import type { ScannedLogs } from './scanned-logs';

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

export class TransferColumns {
  private transfers = 0;
  private readonly transferOf: Column<Int32Array>;
  private readonly transferFrom: Column<Int32Array>;
  private readonly transferTo: Column<Int32Array>;
  private readonly transferLimbs: Column<Uint32Array>;
  private readonly rows: Column<Uint8Array>;
  private readonly rowEnds: Column<Int32Array>;

  /** `guess`: the number of logs the reply likely has */
  constructor(guess: number) {
    this.transferOf = new Column(new Int32Array(guess), (n) => new Int32Array(n));
    this.transferFrom = new Column(new Int32Array(guess), (n) => new Int32Array(n));
    this.transferTo = new Column(new Int32Array(guess), (n) => new Int32Array(n));
    this.transferLimbs = new Column(new Uint32Array(guess * 8), (n) => new Uint32Array(n));
    this.rows = new Column(new Uint8Array(guess * 200), (n) => new Uint8Array(n));
    this.rowEnds = new Column(new Int32Array(guess), (n) => new Int32Array(n));
  }

  /** the next log's entry in `transfer`: its index k from add(), or -1 (not a transfer) */
  logTransfer(k: number): void {
    this.transferOf.room(1)[this.transferOf.length++] = k;
  }

  /**
   * Appends a transfer, its value the first data word: hex digits data[dataFrom + 2, + 66) (the
   * caller checked they are there); the other arguments are its row's fields, plain COPY fields
   * as bytes. Returns its index k, or -1 (nothing appended) when a digit is not hex.
   */
  add(
    data: Uint8Array,
    dataFrom: number,
    from: number,
    to: number,
    network: Uint8Array,
    blockNumber: number,
    logIndex: number,
    tx: Uint8Array,
    token: Uint8Array,
    fromBytes: Uint8Array,
    toBytes: Uint8Array,
  ): number {
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

  done(): Pick<ScannedLogs, 'transfer' | 'transferFrom' | 'transferTo' | 'transferLimbs' | 'rows' | 'rowEnds'> {
    return {
      transfer: this.transferOf.done(),
      transferFrom: this.transferFrom.done(),
      transferTo: this.transferTo.done(),
      transferLimbs: this.transferLimbs.done(),
      rows: this.rows.done(),
      rowEnds: this.rowEnds.done(),
    };
  }
}
