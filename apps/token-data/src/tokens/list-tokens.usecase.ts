import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ListTokensReply, ListTokensRequest } from '@tokensvc/messages';
import { finalityOf } from '../finality/finality';
import { IMAGE_BASE_URL } from '../read-model/image-base';
import { toToken } from '../read-model/token-row';
import { TokensRepository } from '../read-model/tokens.repository';

export const DEFAULT_TOKENS_LIMIT = 25;

/** GET /v2/tokens: filtered, sorted, paged Token records, each network's as of its cursor or (finality=finalized) its finalized block. */
@Injectable()
export class ListTokensUseCase {
  private readonly repo: TokensRepository;
  constructor(
    ds: DataSource,
    @Optional() @Inject(IMAGE_BASE_URL) private readonly imageBase = '',
  ) {
    this.repo = new TokensRepository(ds);
  }

  async execute(req: ListTokensRequest): Promise<ListTokensReply> {
    const limit = req.limit > 0 ? req.limit : DEFAULT_TOKENS_LIMIT;
    const page = Math.max(0, req.page);
    const { total, rows, blocks } = await this.repo.list(req, limit, page * limit, finalityOf(req.finality));
    return {
      totalItems: total,
      pageItems: rows.length,
      more: page * limit + rows.length < total,
      page,
      tokens: rows.map((r) => toToken(r, this.imageBase)),
      blocks,
    };
  }
}
