/** What can be built: the five apps, and the migration CLI (the migrate Job and compose service). */
export const BUILD_TARGETS: Readonly<Record<string, string>> = {
  gateway: 'apps/gateway/src/main.ts',
  'token-data': 'apps/token-data/src/main.ts',
  indexer: 'apps/indexer/src/main.ts',
  quote: 'apps/quote/src/main.ts',
  'status-tracker': 'apps/status-tracker/src/main.ts',
  migrate: 'libs/persistence/src/cli.ts',
};
