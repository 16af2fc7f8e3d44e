import { compactState } from './dump';

describe('compactState', () => {
  it('keeps only the root call of each trace', () => {
    const root = { parent: null, idx: 0, trace: { data: '0x1234' }, children: [1], logs: [{}], ordering: [{ Log: 0 }] };
    const state = { transactions: [{ info: { traces: [root, { idx: 1 }] } }, { info: { traces: [] } }, {}] };
    const out = compactState(state as never) as unknown as typeof state;
    expect(out.transactions[0]!.info!.traces).toEqual([
      { parent: null, idx: 0, trace: { data: '0x1234' }, children: [], logs: [], ordering: [] },
    ]);
    expect(out.transactions[1]!.info!.traces).toEqual([]);
  });
});
