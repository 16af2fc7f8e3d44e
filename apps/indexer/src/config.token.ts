/** DI token of the indexer's config. */
export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');

/** DI token of the indexer's Postgres pool (pg): the pipeline's batches and the head refresh share it. */
export const PG_POOL = Symbol('PG_POOL');
