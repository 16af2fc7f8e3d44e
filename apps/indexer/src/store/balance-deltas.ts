import { ZERO_ADDRESS } from '@tokensvc/domain';
import { pgArray } from './pg-array';

/** A local copy: the library's re-exported binding is a getter call on every use in the hot loop below. */
const ZERO = ZERO_ADDRESS;

/**
 * How many earlier change blocks a balance row keeps (`balances.prior_blocks`): a rollback of up
 * to this many blocks finds a row's new block there. In memory one more is kept, so the upsert
 * can tell a complete list from a cut one.
 */
export const PRIOR_BLOCKS = 8;

interface Delta {
  delta: bigint;
  /** block of the last transfer that moved this balance */
  block: number;
  /** the blocks of its earlier changes, latest first (at most PRIOR_BLOCKS + 1) */
  prior: number[] | undefined;
}

/** Column arrays (Postgres array literals) of balance deltas, one entry per (token, holder). */
export interface BalanceArrays {
  tokens: string;
  holders: string;
  deltas: string;
  blocks: string;
  /** each row's prior blocks as an array literal (text[] of bigint[] literals) */
  priors: string;
  rows: number;
}

/**
 * Net balance changes per (token, holder), summed from Transfers in chain order. The zero address
 * is not a holder (mints and burns), so a token's balances sum to its supply outside it. A delta
 * that nets to 0 is kept: its row still records the block of the holder's last transfer.
 */
export class BalanceDeltas {
  /** token -> holder -> delta (nested maps: no key strings to build per transfer) */
  private readonly byToken = new Map<string, Map<string, Delta>>();
  private pairs = 0;

  /** distinct (token, holder) entries */
  get size(): number {
    return this.pairs;
  }

  /** One Transfer: `value` leaves `from` and reaches `to`. Call in chain order. */
  transfer(token: string, from: string, to: string, value: bigint, block: number): void {
    let byHolder = this.byToken.get(token);
    if (!byHolder) this.byToken.set(token, (byHolder = new Map()));
    if (from !== ZERO) this.add(byHolder, from, -value, block);
    if (to !== ZERO) this.add(byHolder, to, value, block);
  }

  /**
   * The upsert's arrays, in key order: Postgres then walks the balances index in order (a quarter
   * less upsert time than in arrival order, measured on 27k rows).
   */
  arrays(): BalanceArrays {
    const tokens: string[] = [];
    const holders: string[] = [];
    const values: bigint[] = [];
    const blocks: number[] = [];
    const priors: string[] = [];
    for (const token of [...this.byToken.keys()].sort()) {
      const byHolder = this.byToken.get(token)!;
      for (const holder of [...byHolder.keys()].sort()) {
        const x = byHolder.get(holder)!;
        tokens.push(token);
        holders.push(holder);
        values.push(x.delta);
        blocks.push(x.block);
        priors.push(x.prior ? `"{${x.prior.join(',')}}"` : '"{}"');
      }
    }
    return { tokens: pgArray(tokens), holders: pgArray(holders), deltas: pgArray(values), blocks: pgArray(blocks), priors: `{${priors.join(',')}}`, rows: tokens.length };
  }

  private add(byHolder: Map<string, Delta>, holder: string, delta: bigint, block: number): void {
    const d = byHolder.get(holder);
    if (d) {
      d.delta += delta;
      if (d.block !== block) {
        const prior = (d.prior ??= []);
        prior.unshift(d.block);
        if (prior.length > PRIOR_BLOCKS + 1) prior.pop();
        d.block = block;
      }
    } else {
      byHolder.set(holder, { delta, block, prior: undefined });
      this.pairs++;
    }
  }
}
