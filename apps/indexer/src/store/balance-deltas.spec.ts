import { ZERO_ADDRESS } from '@tokensvc/domain';
import { BalanceDeltas, PRIOR_BLOCKS } from './balance-deltas';

const T1 = '0x1111111111111111111111111111111111111111';
const T2 = '0x2222222222222222222222222222222222222222';
const A = '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const B = '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';

describe('BalanceDeltas', () => {
  it('nets transfers per (token, holder), skips the zero address, keeps the last block and zero nets', () => {
    const d = new BalanceDeltas();
    d.transfer(T1, ZERO_ADDRESS, A, 100n, 5); // mint
    d.transfer(T1, A, B, 30n, 6);
    d.transfer(T2, B, B, 7n, 6); // to itself: nets to 0, the row still moves to block 6
    d.transfer(T1, B, ZERO_ADDRESS, 10n, 8); // burn
    expect(d.size).toBe(3);
    expect(d.arrays()).toEqual({
      tokens: `{${T1},${T1},${T2}}`,
      holders: `{${A},${B},${B}}`,
      deltas: '{70,20,0}',
      blocks: '{6,8,6}',
      priors: '{"{5}","{6}","{}"}',
      rows: 3,
    });
  });

  it('sums several batches in chain order in one accumulator (the held changes of a backfill)', () => {
    const all = new BalanceDeltas();
    const transfers: Array<[string, string, string, bigint, number]> = [
      [T1, ZERO_ADDRESS, A, 1000n, 1],
      [T1, A, B, 400n, 2],
      [T2, ZERO_ADDRESS, B, 5n, 2],
      [T1, B, A, 100n, 3],
      [T2, B, A, 5n, 4],
      [T1, A, B, 1n, 4],
    ];
    for (const t of transfers) all.transfer(...t);
    expect(all.size).toBe(4);
    expect(all.arrays()).toEqual({
      tokens: `{${T1},${T1},${T2},${T2}}`,
      holders: `{${A},${B},${A},${B}}`,
      deltas: '{699,301,5,0}',
      blocks: '{4,4,4,4}',
      priors: '{"{3,2,1}","{3,2}","{}","{2}"}',
      rows: 4,
    });
  });

  it('writes the rows the upsert would insert as COPY rows when the network has none (fresh), else the upsert arrays', () => {
    const d = new BalanceDeltas();
    for (let block = 1; block <= 11; block++) d.transfer(T1, A, B, 1n, block);
    d.transfer(T2, ZERO_ADDRESS, A, 5n, 3);
    const fresh = d.write('ethereum', true);
    expect(fresh.kind).toBe('insert');
    expect(fresh.rows).toBe(3);
    const earlier = [10, 9, 8, 7, 6, 5, 4, 3].slice(0, PRIOR_BLOCKS).join(',');
    // A and B changed in 11 blocks: the latest 8 earlier ones are kept, and not all of them (f)
    expect(Buffer.concat(fresh.kind === 'insert' ? fresh.copy : []).toString()).toBe(
      [
        `ethereum\t${T1}\t${A}\t-11\t11\t{${earlier}}\tf`,
        `ethereum\t${T1}\t${B}\t11\t11\t{${earlier}}\tf`,
        `ethereum\t${T2}\t${A}\t5\t3\t{}\tt`,
        '',
      ].join('\n'),
    );
    expect(d.write('ethereum', false)).toEqual({ kind: 'upsert', arrays: d.arrays(), rows: 3 });
  });

  it('is empty without transfers', () => {
    expect(new BalanceDeltas().arrays()).toEqual({ tokens: '{}', holders: '{}', deltas: '{}', blocks: '{}', priors: '{}', rows: 0 });
  });

  it('keeps the latest PRIOR_BLOCKS + 1 earlier change blocks of a row', () => {
    const all = new BalanceDeltas();
    for (let block = 1; block <= 12; block++) {
      all.transfer(T1, A, B, 1n, block);
      all.transfer(T1, A, B, 1n, block); // twice in a block: one change block
    }
    const earlier = [11, 10, 9, 8, 7, 6, 5, 4, 3].slice(0, PRIOR_BLOCKS + 1).join(',');
    expect(all.arrays().priors).toBe(`{"{${earlier}}","{${earlier}}"}`);
  });
});
