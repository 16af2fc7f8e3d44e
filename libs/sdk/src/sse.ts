import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** Reads a text/event-stream body, calling `onEvent` per event (and `onRetry` for a `retry:` field) until it ends or `onEvent` returns true. */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  onEvent: (e: EventSourceMessage) => boolean | void,
  onRetry: (ms: number) => void = () => undefined,
): Promise<'ended' | 'stopped'> {
  let stop = false;
  const parser = createParser({
    onEvent: (e) => {
      if (!stop && onEvent(e) === true) stop = true;
    },
    onRetry,
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return 'ended';
      parser.feed(decoder.decode(value, { stream: true }));
      if (stop) return 'stopped';
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
