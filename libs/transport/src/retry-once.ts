/**
 * One call sent at most twice within one deadline, for requests that may reach a service twice
 * (RpcContract.idempotent): the second attempt goes out when the first
 * - fails with `retryable` (NATS "no responders": no replica in the queue group at that moment;
 *   after `pauseMs`, the time a rolling replica takes to join), or
 * - has no answer after `hedgeAfterMs` (the replica died with the request: its reply is lost).
 * The first answer of either wins (a slow first answer still counts); the deadline is the
 * caller's, never extended: each attempt only gets what is left of it.
 */
export interface RetryOnceOptions {
  deadlineMs: number;
  hedgeAfterMs: number;
  pauseMs: number;
  retryable: (e: unknown) => boolean;
}

export function retryOnce<T>(attempt: (timeoutMs: number) => Promise<T>, o: RetryOnceOptions): Promise<T> {
  const deadline = Date.now() + o.deadlineMs;
  const left = (): number => deadline - Date.now();
  return new Promise<T>((resolve, reject) => {
    let pending = 0;
    let second = false;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const launch = (): void => {
      pending++;
      attempt(Math.max(1, left())).then(
        (value) => finish(() => resolve(value)),
        (e: unknown) => {
          pending--;
          if (settled) return;
          if (!second && o.retryable(e) && left() > o.pauseMs + 1) {
            second = true;
            clearTimeout(timer);
            timer = setTimeout(launch, o.pauseMs);
            return;
          }
          // the other attempt may still answer; the last one to fail decides the error
          if (pending === 0) finish(() => reject(e));
        },
      );
    };
    launch();
    timer = setTimeout(
      () => {
        if (settled || second) return;
        second = true;
        launch();
      },
      Math.min(o.hedgeAfterMs, Math.max(0, o.deadlineMs - 1)),
    );
  });
}
