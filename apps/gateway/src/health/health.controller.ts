import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { RouteSchema } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import type Redis from 'ioredis';
import type { Pool } from 'pg';
import { PING_BY_SERVICE, SERVICES } from '@tokensvc/messages';
import { routeSchema } from '@tokensvc/api';
import { NatsRpcClient, runChecks, type ReadinessCheck } from '@tokensvc/transport';
import { GATEWAY_OPERATIONS as OPS } from '../operations/gateway.endpoints';
import { PG_POOL, REDIS } from '../infra/tokens';

/**
 * How long one readiness report is served. The probe is public and each report costs a Postgres
 * query, a Redis ping and a NATS ping per service (up to 1.5 s): within this window every caller
 * shares one report, and concurrent callers share the one being made.
 */
export const READY_CACHE_MS = 2000;

type ReadyReport = {
  status: string;
  timestamp: string;
  checks: Record<string, string>;
  services: Record<string, string>;
  dataOnChain: Record<string, string>;
};

/**
 * Postgres' readiness query: it answers, and per indexed network whether its data is ahead of the
 * chain its node serves (index_cursors.ahead_of_chain, set by the indexer from the moment it finds
 * the chain below its data until the rollback to the common ancestor commits). One row per network.
 */
const CURSORS_SQL = `SELECT network, ahead_of_chain FROM index_cursors ORDER BY network`;

/** Public probes: liveness and readiness of the gateway's dependencies. */
@Controller('health')
export class HealthController {
  private readonly checks: Record<string, ReadinessCheck>;
  private report: { at: number; value: Promise<ReadyReport> } | undefined;

  constructor(
    rpc: NatsRpcClient,
    @Inject(PG_POOL) private readonly pg: Pool,
    @Inject(REDIS) redis: Redis,
  ) {
    this.checks = {
      nats: async () => rpc.connected,
      redis: async () => (await redis.ping()) === 'PONG',
    };
    // Services are reported too (informational): each answers its ping subject over NATS.
    for (const s of SERVICES) this.serviceChecks[s] = async () => (await rpc.call(PING_BY_SERVICE[s], {}, 1000)).service === s;
  }

  private readonly serviceChecks: Record<string, ReadinessCheck> = {};

  // GET /health itself is a declared public operation (the spec's), served from the served table.
  @Get('live')
  @RouteSchema(routeSchema('live', OPS.live))
  @Header('cache-control', 'no-store')
  live(): { status: string; timestamp: string } {
    return { status: 'ok', timestamp: new Date().toISOString() };
  }

  /**
   * 200 when NATS, Postgres and Redis answer; 503 otherwise. Services are listed, not required, and
   * so is each network's `dataOnChain`: `down` while its indexed data holds blocks the chain no
   * longer has (its answers are not the chain's current state until the rollback commits).
   */
  @Get('ready')
  @RouteSchema(routeSchema('ready', OPS.ready))
  @Header('cache-control', `public, max-age=${READY_CACHE_MS / 1000}`)
  async ready(@Res({ passthrough: true }) res: FastifyReply): Promise<unknown> {
    const now = Date.now();
    if (!this.report || now - this.report.at >= READY_CACHE_MS) this.report = { at: now, value: this.check() };
    const report = await this.report.value;
    if (report.status !== 'ok') void res.status(503);
    return report;
  }

  private async check(): Promise<ReadyReport> {
    let cursors: Array<{ network: string; ahead_of_chain: boolean }> = [];
    const postgres = async (): Promise<boolean> => {
      cursors = (await this.pg.query<{ network: string; ahead_of_chain: boolean }>(CURSORS_SQL)).rows;
      return true;
    };
    const checks = { nats: this.checks['nats']!, postgres, redis: this.checks['redis']! };
    const [deps, services] = await Promise.all([runChecks(checks), runChecks(this.serviceChecks, 1500)]);
    const dataOnChain = Object.fromEntries(cursors.map((c) => [c.network, c.ahead_of_chain ? 'down' : 'up']));
    return { ...deps, services: services.checks, dataOnChain };
  }
}
