import type { Network } from '@tokensvc/domain';
import { type DevnetChain, devnetToken } from '@tokensvc/protocols/devnet';
import { readMany } from '../chain/reader';
import { tailSymbols } from '../config';
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
  return devnetToken(tokens, symbol);
}

/** Pool specs name long-tail tokens TAIL1/TAIL2 so one table serves every network; `ctx.aliases` renames the rest. */
export function symbolResolver(ctx: BuildContext): (symbol: string) => string {
  const [tail1, tail2] = tailSymbols(ctx.network);
  return (symbol) => {
    const s = symbol === 'TAIL1' ? tail1 : symbol === 'TAIL2' ? tail2 : symbol;
    return ctx.aliases?.[s] ?? s;
  };
}

/** The protocol modules' view of the chain being built (the port of libs/protocols' devnet facets). */
export function devnetChain(ctx: BuildContext): DevnetChain {
  const resolve = symbolResolver(ctx);
  return {
    network: ctx.network,
    deployer: ctx.deployer,
    deploy: (from, artifact, args, label, gas) => ctx.writer.deploy(from, artifact, args, label, gas),
    call: (from, to, iface, fn, args, opts) => ctx.writer.call(from, to, iface, fn, args, opts),
    read: (calls) => readMany(ctx.rpc, calls),
    mine: async (stepSeconds) => {
      await mineNext(ctx, stepSeconds);
    },
    resolve,
    log: ctx.log,
  };
}
