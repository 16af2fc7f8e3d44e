/** A typed array that the scanner (logs-scanner.ts) appends to, for one reply's columns. */

/** Grows by doubling. */
export class Column<T extends Float64Array | Int32Array | Uint32Array | Uint8Array> {
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
