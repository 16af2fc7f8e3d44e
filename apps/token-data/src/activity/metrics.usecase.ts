import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { TokenMetricsReply, TokenMetricsRequest } from '@tokensvc/messages';
import { ChainClock } from '../clock/chain-clock';
import { requirePlatformToken, requireToken } from '../read-model/token-lookup';
import { TokensRepository } from '../read-model/tokens.repository';
import { ActivityRepository } from './activity.repository';
import { flowEdges, intervalMetrics } from './interval-metrics';

/** GET /v3/tokens/metrics: the eight windows (15m..2d) of a platform token, each vs the prior one. */
@Injectable()
export class TokenMetricsUseCase {
  private readonly tokens: TokensRepository;
  private readonly activities: ActivityRepository;
  constructor(
    ds: DataSource,
    private readonly clock: ChainClock,
  ) {
    this.tokens = new TokensRepository(ds);
    this.activities = new ActivityRepository(ds);
  }

  async execute(req: TokenMetricsRequest): Promise<TokenMetricsReply> {
    const token = await requireToken(this.tokens, req.id);
    requirePlatformToken(token);
    const now = (await this.clock.now(token.network)).getTime();
    // the 2d window and the 2d before it, summed in SQL per interval between window edges
    const events = await this.activities.flowBuckets(token.key, flowEdges(now), now + 1);
    return { windows: intervalMetrics(events, now) };
  }
}
