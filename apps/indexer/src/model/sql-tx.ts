/** The open database transaction of one batch (or one reorg rollback). */
export interface SqlTx {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** COPY ... FROM STDIN of a text-format payload; resolves with the rows copied (the pipeline's transactions have it) */
  copy?(text: string, payload: readonly Buffer[]): Promise<number>;
}
