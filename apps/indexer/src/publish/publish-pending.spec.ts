import { poolStateMsgId } from './publish-pending';

describe('poolStateMsgId', () => {
  it('is <network>:<pool>:<block>:<log> until the first rollback', () => {
    expect(poolStateMsgId('base', '0xab', '120', 7, 0, false)).toBe('base:0xab:120:7');
  });

  it('keeps re-applied states after a rollback apart from the orphaned ones, and marks restored states', () => {
    expect(poolStateMsgId('base', '0xab', 120, 7, 2, false)).toBe('base:0xab:120:7:r2');
    expect(poolStateMsgId('base', '0xab', 118, 3, 2, true)).toBe('base:0xab:118:3:r2:restored');
    expect(poolStateMsgId('base', '0xab', 118, 3, 0, true)).not.toBe(poolStateMsgId('base', '0xab', 118, 3, 0, false));
  });
});
