/**
 * Shrinks an anvil `--dump-state` file by ~80 %: every mined transaction keeps its receipt (with
 * the logs indexers read) but only the top frame of its call trace (the nested frames repeat
 * every log and call). The file (GBs for a million events) is too large for one JSON.parse, so
 * it is streamed: bytes pass through unchanged except the elements of the top-level
 * "transactions" array, which are parsed, compacted and re-serialised one by one.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';

interface TraceNode {
  children: unknown[];
  logs: unknown[];
  ordering: unknown[];
}

interface MinedTx {
  info?: { traces?: TraceNode[] };
}

export function compactMinedTx(tx: MinedTx): MinedTx {
  const root = tx.info?.traces?.[0];
  if (tx.info && root) tx.info.traces = [{ ...root, children: [], logs: [], ordering: [] }];
  return tx;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** Index of the quote that closes a string scanned from `from`, or -1 if it is not in `chunk`. */
function closingQuote(chunk: Buffer, from: number, escapedAtStart: boolean): number {
  let at = from;
  for (;;) {
    const q = chunk.indexOf(QUOTE, at);
    if (q < 0) return -1;
    let run = 0;
    while (q - run - 1 >= from && chunk[q - run - 1] === BACKSLASH) run++;
    if (q - run === from && escapedAtStart) run++;
    if (run % 2 === 0) return q;
    at = q + 1;
  }
}

function trailingBackslashes(chunk: Buffer, from: number, escapedAtStart: boolean): number {
  let run = 0;
  while (chunk.length - run - 1 >= from && chunk[chunk.length - run - 1] === BACKSLASH) run++;
  return chunk.length - run === from && escapedAtStart ? run + 1 : run;
}

/**
 * Copies JSON text from `chunks` to `write`, passing each object or array element of the top-level
 * array `key` through `map` (scalar elements pass unchanged); returns how many elements it mapped.
 */
export async function transformTopLevelArray(
  chunks: AsyncIterable<Buffer>,
  write: (out: Buffer | string) => Promise<void>,
  key: string,
  map: (element: unknown) => unknown,
): Promise<number> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let stringStart = -1;
  let lastTopString = '';
  let pendingKey = Buffer.alloc(0);
  let inTarget = false;
  let element: Buffer[] | undefined;
  let elements = 0;
  for await (const chunk of chunks) {
    let passFrom = 0;
    let elementFrom = element ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      if (inString) {
        // jump to the closing quote (most bytes are hex strings); a quote after an odd run of
        // backslashes is escaped
        const end = closingQuote(chunk, i, escaped);
        if (end < 0) {
          escaped = trailingBackslashes(chunk, i, escaped) % 2 === 1;
          i = chunk.length;
          break;
        }
        escaped = false;
        inString = false;
        if (depth === 1 && stringStart >= 0) lastTopString = Buffer.concat([pendingKey, chunk.subarray(stringStart, end)]).toString();
        stringStart = -1;
        pendingKey = Buffer.alloc(0);
        i = end;
        continue;
      }
      const c = chunk[i]!;
      if (c === QUOTE) {
        inString = true;
        if (depth === 1) stringStart = i + 1;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth++;
        if (depth === 2) inTarget = lastTopString === key && c === OPEN_BRACKET;
        if (inTarget && depth === 3) {
          // an element starts: flush what passed through so far, capture from here
          await write(chunk.subarray(passFrom, i));
          element = [];
          elementFrom = i;
        }
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (inTarget && depth === 3 && element) {
          element.push(chunk.subarray(elementFrom, i + 1));
          await write(JSON.stringify(map(JSON.parse(Buffer.concat(element).toString()))));
          elements++;
          element = undefined;
          elementFrom = -1;
          passFrom = i + 1;
        }
        depth--;
        if (depth === 1) inTarget = false;
      }
    }
    if (element) {
      element.push(chunk.subarray(elementFrom));
    } else {
      await write(chunk.subarray(passFrom));
    }
    if (inString && depth === 1 && stringStart >= 0) {
      pendingKey = Buffer.concat([pendingKey, chunk.subarray(stringStart)]);
      stringStart = 0;
    }
  }
  return elements;
}

export async function compactStateFile(src: string, dst: string): Promise<number> {
  const out = createWriteStream(dst);
  const write = async (chunk: Buffer | string): Promise<void> => {
    if (!out.write(chunk)) await once(out, 'drain');
  };
  const chunks = createReadStream(src, { highWaterMark: 16 << 20 }) as AsyncIterable<Buffer>;
  const elements = await transformTopLevelArray(chunks, write, 'transactions', (tx) => compactMinedTx(tx as MinedTx));
  out.end();
  await once(out, 'finish');
  return elements;
}
