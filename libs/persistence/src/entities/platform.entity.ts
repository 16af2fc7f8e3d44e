import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A platform (protocol) on one network: a slug mapped to an adapter family plus its addresses. */
@Entity({ name: 'platforms' })
export class PlatformEntity {
  @PrimaryColumn({ type: 'text' })
  network!: string;

  @PrimaryColumn({ type: 'text' })
  platform!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  image!: string;

  /** adapter family: native, basic, uniswap-v2, uniswap-v3, erc4626, aave-v3 */
  @Column({ type: 'text' })
  family!: string;

  /** coarse category used by the `type` filter: native, basic, dex, vault, lending */
  @Column({ type: 'text' })
  category!: string;

  /** contract addresses by role (factory, router, pool, ...) */
  @Column({ type: 'jsonb', default: () => "'{}'::jsonb" })
  addresses!: Record<string, string>;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
