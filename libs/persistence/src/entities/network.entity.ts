import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A network this deployment serves (enabled by config, checked against the node's chain id). */
@Entity({ name: 'networks' })
export class NetworkEntity {
  @PrimaryColumn({ type: 'text' })
  network!: string;

  @Column({ name: 'chain_id', type: 'integer' })
  chainId!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
