/** DI token of the indexer's config. */
export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');
