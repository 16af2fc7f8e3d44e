import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CatalogRepository } from '@tokensvc/persistence';
import type { ListNetworksReply } from '@tokensvc/messages';

/** GET /v1/networks: the networks this deployment serves, in chain id order. */
@Injectable()
export class ListNetworksUseCase {
  private readonly repo: CatalogRepository;
  constructor(ds: DataSource) {
    this.repo = new CatalogRepository(ds);
  }

  async execute(): Promise<ListNetworksReply> {
    return { networks: (await this.repo.enabledNetworks()).map((n) => n.network) };
  }
}
