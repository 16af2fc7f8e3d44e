import { ClientSlots } from './client-slots';
import { lastEventId, sseComment, sseEvent, sseRetry } from './sse-format';

describe('SSE wire format', () => {
  it('writes an event as id + one data line + a blank line, and comments and retry lines', () => {
    expect(sseEvent(2, { a: 'x\ny' })).toBe('id: 2\ndata: {"a":"x\\ny"}\n\n');
    expect(sseComment('keep\r\nalive')).toBe(': keep alive\n\n');
    expect(sseRetry(3000)).toBe('retry: 3000\n\n');
  });

  it('reads the resume point: the Last-Event-ID header wins over the parameter, and must be an event id', () => {
    expect(lastEventId(undefined, undefined)).toEqual({ ok: true, value: undefined });
    expect(lastEventId(undefined, 3)).toEqual({ ok: true, value: 3 });
    expect(lastEventId(' 1 ', 3)).toEqual({ ok: true, value: 1 });
    expect(lastEventId('', 3)).toEqual({ ok: true, value: 3 });
    expect(lastEventId(['0'], undefined)).toEqual({ ok: true, value: 0 });
    for (const bad of ['-1', 'abc', '1.5', '1e3', '9999999999']) {
      const r = lastEventId(bad, undefined);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toMatch(/^invalid Last-Event-ID header/);
    }
  });
});

describe('open stream bounds', () => {
  it('bounds streams per client and in all, and gives slots back once', () => {
    const slots = new ClientSlots(2, 3);
    const a1 = slots.take('key:a');
    const a2 = slots.take('key:a');
    const a3 = slots.take('key:a');
    expect('refused' in a3 && a3.refused).toMatch(/at most 2 at once/);
    const b1 = slots.take('ip:1.2.3.4');
    const c1 = slots.take('ip:5.6.7.8');
    expect('refused' in c1 && c1.refused).toMatch(/3 status streams open, its maximum/);
    if ('release' in a1) {
      a1.release();
      a1.release(); // twice is once
    }
    expect(slots.size).toBe(2);
    expect('release' in slots.take('key:a')).toBe(true);
    expect('refused' in slots.take('key:a')).toBe(true);
    for (const s of [a2, b1]) if ('release' in s) s.release();
    expect(slots.size).toBe(1);
  });
});
