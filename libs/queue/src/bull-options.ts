/**
 * The BullMQ options every swept queue builds from its settings: the Redis connection of a URL, and
 * the worker's lock and stalled-job settings. Pure: no connection is opened here.
 */
import { redisConnectionOptions } from '@tokensvc/config';
import type { ConnectionOptions, WorkerOptions } from 'bullmq';

/** The connection of a queue or worker: the URL's host, port, db and credentials (the password decoded: REDIS_PASSWORD is folded into the URL percent-encoded), no per-request retry cap (BullMQ's blocking commands need none). */
export function bullConnection(url: string): ConnectionOptions {
  return { ...redisConnectionOptions(url), maxRetriesPerRequest: null };
}

export interface WorkerSettings {
  redisUrl: string;
  /** BullMQ key prefix (tests isolate themselves with their own) */
  prefix: string;
  concurrency: number;
  /** a job whose worker died is taken over after this long; BullMQ's default lock when left out */
  lockMs?: number;
}

/**
 * The worker's options: a job stalls (its worker died) once its lock lapses, checked every half
 * lock (500 ms at least); a stalled job is taken over up to 1000 times rather than failed.
 */
export function bullWorkerOptions(s: WorkerSettings): WorkerOptions {
  return {
    connection: bullConnection(s.redisUrl),
    prefix: s.prefix,
    concurrency: s.concurrency,
    ...(s.lockMs === undefined ? {} : { lockDuration: s.lockMs, stalledInterval: Math.max(500, Math.floor(s.lockMs / 2)) }),
    maxStalledCount: 1_000,
  };
}
