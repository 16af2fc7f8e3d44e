import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CatalogRepository } from '@tokensvc/persistence';
import type { ListPlatformsReply, ListPlatformsRequest } from '@tokensvc/messages';

/** GET /v2/platforms: enabled platforms, optionally filtered by type (family or category). */
@Injectable()
export class ListPlatformsUseCase {
  private readonly repo: CatalogRepository;
  constructor(ds: DataSource) {
    this.repo = new CatalogRepository(ds);
  }

  async execute(req: ListPlatformsRequest): Promise<ListPlatformsReply> {
    const rows = await this.repo.enabledPlatforms(req.type);
    return { platforms: rows.map((r) => ({ platform: r.platform, name: r.name, image: r.image, network: r.network })) };
  }
}
