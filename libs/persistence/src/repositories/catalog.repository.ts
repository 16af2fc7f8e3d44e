import type { DataSource } from 'typeorm';
import { NetworkEntity } from '../entities/network.entity';
import { PlatformEntity } from '../entities/platform.entity';

export interface NetworkRow {
  network: string;
  chainId: number;
  name: string;
}

export interface PlatformRow {
  network: string;
  platform: string;
  name: string;
  image: string;
  family: string;
  category: string;
  addresses: Record<string, string>;
}

/** Networks and platforms: written by the indexer at boot, read by token-data. */
export class CatalogRepository {
  constructor(private readonly ds: DataSource) {}

  async enabledNetworks(): Promise<NetworkRow[]> {
    return this.ds
      .getRepository(NetworkEntity)
      .find({ where: { enabled: true }, order: { chainId: 'ASC' }, select: ['network', 'chainId', 'name'] });
  }

  /** Enabled platforms of enabled networks; `type` matches the family or the category. */
  async enabledPlatforms(type?: string): Promise<PlatformRow[]> {
    const qb = this.ds
      .getRepository(PlatformEntity)
      .createQueryBuilder('p')
      .innerJoin(NetworkEntity, 'n', 'n.network = p.network AND n.enabled')
      .where('p.enabled');
    if (type !== undefined) qb.andWhere('(p.family = :type OR p.category = :type)', { type });
    return qb.orderBy('p.platform', 'ASC').addOrderBy('p.network', 'ASC').getMany();
  }

  /** Replaces the catalogue for the given networks in one transaction (networks not listed are disabled). */
  async syncCatalog(networks: NetworkRow[], platforms: PlatformRow[]): Promise<void> {
    await this.ds.transaction(async (tx) => {
      await tx.query(`UPDATE networks SET enabled = false, updated_at = now() WHERE NOT (network = ANY($1))`, [
        networks.map((n) => n.network),
      ]);
      for (const n of networks) {
        await tx.query(
          `INSERT INTO networks (network, chain_id, name, enabled) VALUES ($1, $2, $3, true)
           ON CONFLICT (network) DO UPDATE SET chain_id = EXCLUDED.chain_id, name = EXCLUDED.name, enabled = true, updated_at = now()`,
          [n.network, n.chainId, n.name],
        );
      }
      await tx.query(`UPDATE platforms SET enabled = false, updated_at = now() WHERE network = ANY($1)`, [networks.map((n) => n.network)]);
      for (const p of platforms) {
        await tx.query(
          `INSERT INTO platforms (network, platform, name, image, family, category, addresses, enabled) VALUES ($1, $2, $3, $4, $5, $6, $7, true)
           ON CONFLICT (network, platform) DO UPDATE SET name = EXCLUDED.name, image = EXCLUDED.image, family = EXCLUDED.family,
             category = EXCLUDED.category, addresses = EXCLUDED.addresses, enabled = true, updated_at = now()`,
          [p.network, p.platform, p.name, p.image, p.family, p.category, JSON.stringify(p.addresses)],
        );
      }
    });
  }
}
