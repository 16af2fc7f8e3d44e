import type { Network } from '@tokensvc/domain';
import type { RpcClient } from '../chain/rpc';
import type { ChainWriter, MinedBlock } from '../chain/writer';
import type { ManifestToken } from '../manifest';

/** Hands out block timestamps during deployment: contracts are created ~31 days in the past. */
export class BlockClock {
  constructor(public time: number) {}

  next(stepSeconds = 12): number {
    this.time += stepSeconds;
    return this.time;
  }
}

export interface BuildContext {
  network: Network;
  chainId: number;
  seed: string;
  rpc: RpcClient;
  writer: ChainWriter;
  /** anvil account that deploys and owns everything on this network */
  deployer: string;
  clock: BlockClock;
  log: (line: string) => void;
  /**
   * Symbols the pool, reserve and vault tables name that this network trades under another symbol
   * (the mainnet-shaped base: WBTC is played by cbBTC). Unset on today's devnet.
   */
  aliases?: Readonly<Record<string, string>>;
}

export function mineNext(ctx: BuildContext, stepSeconds = 12): Promise<MinedBlock> {
  return ctx.writer.mine(ctx.clock.next(stepSeconds));
}

/** Far-future deadline: router deadlines are irrelevant on a chain whose clock we drive. */
export const NO_DEADLINE = 4_102_444_800n;

export function tokenBySymbol(tokens: readonly ManifestToken[], symbol: string): ManifestToken {
  const token = tokens.find((t) => t.symbol === symbol);
  if (!token) throw new Error(`unknown token ${symbol}`);
  return token;
}
