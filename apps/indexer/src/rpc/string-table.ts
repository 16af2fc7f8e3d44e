/**
 * The strings that repeat across eth_getLogs replies (contract addresses and topics), interned
 * by the scanner (logs-scanner.ts) as ids in a table the receiving thread mirrors.
 */

/** keccak256('Transfer(address,address,uint256)'): the ERC-20 Transfer, whose rows the scanner builds (decode/topics.ts has it too; a test keeps them equal) */
export const ERC20_TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** [0-9a-zA-Z-] only: what the COPY writer takes as a plain field (a transfer with anything else goes the generic way) */
const PLAIN_TEXT = /^[0-9a-zA-Z-]*$/;
export const plainBytesOf = (s: string): Uint8Array | undefined =>
  PLAIN_TEXT.test(s) ? Uint8Array.from(Buffer.from(s, 'latin1')) : undefined;

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
