/** The same read model the bench asks of every indexer: a row per event, pool state, balances. */
import { onchainTable, primaryKey } from 'ponder';

export const transfer = onchainTable('transfer', (t) => ({
  id: t.text().primaryKey(),
  token: t.hex().notNull(),
  from: t.hex().notNull(),
  to: t.hex().notNull(),
  value: t.bigint().notNull(),
  blockNumber: t.bigint().notNull(),
  txHash: t.hex().notNull(),
}));

export const balance = onchainTable(
  'balance',
  (t) => ({
    token: t.hex().notNull(),
    holder: t.hex().notNull(),
    amount: t.bigint().notNull(),
    blockNumber: t.bigint().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.token, table.holder] }) }),
);

export const swap = onchainTable('swap', (t) => ({
  id: t.text().primaryKey(),
  pool: t.hex().notNull(),
  sender: t.hex().notNull(),
  to: t.hex().notNull(),
  amount0In: t.bigint().notNull(),
  amount1In: t.bigint().notNull(),
  amount0Out: t.bigint().notNull(),
  amount1Out: t.bigint().notNull(),
  blockNumber: t.bigint().notNull(),
  txHash: t.hex().notNull(),
}));

export const pool = onchainTable('pool', (t) => ({
  address: t.hex().primaryKey(),
  reserve0: t.bigint().notNull(),
  reserve1: t.bigint().notNull(),
  blockNumber: t.bigint().notNull(),
  logIndex: t.integer().notNull(),
}));

export const liquidity = onchainTable('liquidity', (t) => ({
  id: t.text().primaryKey(),
  pool: t.hex().notNull(),
  kind: t.text().notNull(),
  sender: t.hex().notNull(),
  amount0: t.bigint().notNull(),
  amount1: t.bigint().notNull(),
  blockNumber: t.bigint().notNull(),
}));

export const vaultFlow = onchainTable('vault_flow', (t) => ({
  id: t.text().primaryKey(),
  vault: t.hex().notNull(),
  kind: t.text().notNull(),
  account: t.hex().notNull(),
  assets: t.bigint().notNull(),
  shares: t.bigint().notNull(),
  blockNumber: t.bigint().notNull(),
  txHash: t.hex().notNull(),
}));
