import type { FastifyReply } from 'fastify';
import type Redis from 'ioredis';
import type { Pool } from 'pg';
import type { NatsRpcClient } from '@tokensvc/transport';
import { HealthController, READY_CACHE_MS } from './health.controller';

describe('GET /health/ready', () => {
  afterEach(() => jest.useRealTimers());

  it('is cheap: one set of dependency checks per short window, shared by concurrent and later callers', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    const calls = { pg: 0, redis: 0, nats: 0 };
    const pg = { query: async () => (calls.pg++, { rowCount: 0, rows: [] }) } as unknown as Pool;
    const redis = { ping: async () => (calls.redis++, 'PONG') } as unknown as Redis;
    const rpc = {
      connected: true,
      call: async (c: { service: string }) => (calls.nats++, { service: c.service }),
    } as unknown as NatsRpcClient;
    const health = new HealthController(rpc, pg, redis);
    const res = { status: jest.fn() } as unknown as FastifyReply;

    const answers = await Promise.all(Array.from({ length: 50 }, () => health.ready(res)));
    expect(answers.every((a) => (a as { status: string }).status === 'ok')).toBe(true);
    for (let i = 0; i < 50; i++) await health.ready(res);
    expect(calls.pg).toBe(1);
    expect(calls.redis).toBe(1);
    const servicePings = calls.nats;

    // After the window the next caller gets a fresh report.
    jest.advanceTimersByTime(READY_CACHE_MS);
    await health.ready(res);
    expect(calls.pg).toBe(2);
    expect(calls.nats).toBe(servicePings * 2);
  });
});
