/** Protocol upkeep the deployer performs during the history: oracle rounds and vault harvests. */
import { ABI } from '../chain/abis';
import { readMany } from '../chain/reader';
import { VAULTS } from '../config';
import type { World } from './world';

/** Chainlink-like update rule: 0.5 % deviation or a heartbeat. */
const DEVIATION = 0.005;

export class OracleKeeper {
  private readonly last = new Map<string, number>();

  constructor(private readonly world: World) {
    for (const m of world.platform('aave-v3').markets) this.last.set(m.priceFeed, world.price(m.symbol, 0));
  }

  queueUpdates(step: number, heartbeat: boolean): number {
    let updates = 0;
    for (const m of this.world.platform('aave-v3').markets) {
      const price = this.world.price(m.symbol, step);
      const last = this.last.get(m.priceFeed) ?? 0;
      if (!heartbeat && Math.abs(price / last - 1) < DEVIATION) continue;
      this.world.ctx.writer.call(this.world.ctx.deployer, m.priceFeed, ABI.priceFeed(), 'setAnswer', [BigInt(Math.round(price * 1e8))], { gas: 150_000n, label: `feed ${m.symbol}` });
      this.last.set(m.priceFeed, price);
      updates++;
    }
    return updates;
  }
}

/** Pays a day of yield into every vault so share prices grow at the configured APY. */
export async function queueHarvests(world: World): Promise<void> {
  const vaults = world.platform('erc4626').vaults;
  const totals = await readMany(
    world.ctx.rpc,
    vaults.map((v) => ({ to: v.address, iface: ABI.vault(), fn: 'totalAssets' })),
  );
  vaults.forEach((v, i) => {
    const spec = VAULTS.find((s) => s.symbol === v.symbol);
    const total = BigInt(totals[i]![0]);
    const amount = (total * BigInt(Math.round(((spec?.apy ?? 0.05) / 365) * 1e9))) / 1_000_000_000n;
    if (amount === 0n) return;
    world.portfolio.debit(world.ctx.deployer, v.asset, amount);
    world.ctx.writer.call(world.ctx.deployer, v.address, ABI.vault(), 'harvest', [amount], { gas: 200_000n, label: `harvest ${v.symbol}` });
  });
}
