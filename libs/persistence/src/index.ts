export * from './data-source';
export * from './entities/network.entity';
export * from './entities/platform.entity';
export * from './repositories/catalog.repository';
export * from './repositories/api-keys.repository';
export * from './nest/persistence.module';
export * from './read-models/pool-row';
export * from './pg-pool';
