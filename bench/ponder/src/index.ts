/** One handler per event: insert the event row; Transfers also move balances, Syncs set pool state. */
import { ponder } from 'ponder:registry';
import { balance, liquidity, pool, swap, transfer, vaultFlow } from 'ponder:schema';

const ZERO = '0x0000000000000000000000000000000000000000';

ponder.on('Erc20:Transfer', async ({ event, context }) => {
  const { from, to, value } = event.args;
  const token = event.log.address;
  await context.db
    .insert(transfer)
    .values({ id: event.id, token, from, to, value, blockNumber: event.block.number, txHash: event.transaction.hash });
  if (from !== ZERO) {
    await context.db
      .insert(balance)
      .values({ token, holder: from, amount: -value, blockNumber: event.block.number })
      .onConflictDoUpdate((row) => ({ amount: row.amount - value, blockNumber: event.block.number }));
  }
  if (to !== ZERO) {
    await context.db
      .insert(balance)
      .values({ token, holder: to, amount: value, blockNumber: event.block.number })
      .onConflictDoUpdate((row) => ({ amount: row.amount + value, blockNumber: event.block.number }));
  }
});

ponder.on('Pair:Swap', async ({ event, context }) => {
  await context.db
    .insert(swap)
    .values({ id: event.id, pool: event.log.address, ...event.args, blockNumber: event.block.number, txHash: event.transaction.hash });
});

ponder.on('Pair:Sync', async ({ event, context }) => {
  const state = {
    reserve0: event.args.reserve0,
    reserve1: event.args.reserve1,
    blockNumber: event.block.number,
    logIndex: event.log.logIndex,
  };
  await context.db
    .insert(pool)
    .values({ address: event.log.address, ...state })
    .onConflictDoUpdate(() => state);
});

ponder.on('Pair:Mint', async ({ event, context }) => {
  await context.db.insert(liquidity).values({
    id: event.id,
    pool: event.log.address,
    kind: 'mint',
    sender: event.args.sender,
    amount0: event.args.amount0,
    amount1: event.args.amount1,
    blockNumber: event.block.number,
  });
});

ponder.on('Pair:Burn', async ({ event, context }) => {
  await context.db.insert(liquidity).values({
    id: event.id,
    pool: event.log.address,
    kind: 'burn',
    sender: event.args.sender,
    amount0: event.args.amount0,
    amount1: event.args.amount1,
    blockNumber: event.block.number,
  });
});

ponder.on('Vault:Deposit', async ({ event, context }) => {
  const { owner, assets, shares } = event.args;
  await context.db.insert(vaultFlow).values({
    id: event.id,
    vault: event.log.address,
    kind: 'deposit',
    account: owner,
    assets,
    shares,
    blockNumber: event.block.number,
    txHash: event.transaction.hash,
  });
});

ponder.on('Vault:Withdraw', async ({ event, context }) => {
  const { owner, assets, shares } = event.args;
  await context.db.insert(vaultFlow).values({
    id: event.id,
    vault: event.log.address,
    kind: 'withdraw',
    account: owner,
    assets,
    shares,
    blockNumber: event.block.number,
    txHash: event.transaction.hash,
  });
});
