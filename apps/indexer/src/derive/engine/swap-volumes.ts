/**
 * DEX swap volume of basic and native tokens (issue 32). They have no activities (those belong to
 * a platform token: a V2 LP, a vault share, an aToken), so their volume comes from the swaps of
 * every indexed pool, whatever its family (V2 pairs and V3 pools alike): a swap counts once for
 * each of its two tokens, valued like a swap activity's volume_usd (its input side at the block's
 * closing prices, the output side when the input has no price). Kept per token and block in integer
 * cents, the unit every window sum runs in (math/windows.ts), so sums do not depend on batching.
 */
import type { Network } from '@tokensvc/domain';
import type { SwapEvent } from '../../model/decoded-batch';
import { toCents } from '../math/windows';
import { swapSidesUsd, swapVolumeUsd, type PriceBook } from './activities';
import type { TokenRole } from './model';

/** One token's swaps in one block: the row `swap_volumes` stores. */
export interface SwapVolumeRow {
  network: Network;
  blockNumber: number;
  tokenKey: string;
  time: number;
  swaps: number;
  volumeCents: number;
}

/** Roles whose volume is their swap volume; LP, vault and aToken volumes are their activities'. */
export const SWAP_VOLUME_ROLES: readonly TokenRole[] = ['basic', 'native'];

export const countsSwapVolume = (role: TokenRole | undefined): boolean => role !== undefined && SWAP_VOLUME_ROLES.includes(role);

/** The swaps of one block, summed per token (address). */
export class BlockSwapVolumes {
  private readonly byToken = new Map<string, { swaps: number; cents: number }>();

  /** Counts a swap of an indexed pool towards those of its tokens `roleOf` says have swap volume. */
  add(book: PriceBook, e: SwapEvent, roleOf: (address: string) => TokenRole | undefined): void {
    const countIn = countsSwapVolume(roleOf(e.tokenIn));
    const countOut = countsSwapVolume(roleOf(e.tokenOut));
    if (!countIn && !countOut) return;
    const { inputUsd, outputUsd } = swapSidesUsd(book, e);
    const cents = toCents(swapVolumeUsd(inputUsd, outputUsd));
    if (countIn) this.count(e.tokenIn, cents);
    if (countOut) this.count(e.tokenOut, cents);
  }

  private count(token: string, cents: number): void {
    const v = this.byToken.get(token);
    if (v) {
      v.swaps++;
      v.cents += cents;
    } else this.byToken.set(token, { swaps: 1, cents });
  }

  get size(): number {
    return this.byToken.size;
  }

  /** The block's rows with the token's address, in address order. */
  rows(
    network: Network,
    blockNumber: number,
    time: number,
    keyOf: (address: string) => string,
  ): Array<{ address: string; row: SwapVolumeRow }> {
    return [...this.byToken.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([address, v]) => ({
        address,
        row: { network, blockNumber, tokenKey: keyOf(address), time, swaps: v.swaps, volumeCents: v.cents },
      }));
  }
}
