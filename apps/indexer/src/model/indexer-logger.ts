/** Where the indexer's loops report (Nest's Logger in the app; a collector in the tests). */
export interface IndexerLogger {
  log(message: unknown): void;
  warn(message: unknown): void;
  error(message: unknown): void;
}
