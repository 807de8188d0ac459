import {
  deliveryIdFor,
  deliveryOrderOf,
  isIdOf,
  newEventId,
  newId,
  resendDeliveryId,
  resendTag,
  timeOfId,
  timeOfResend,
} from './ids';

describe('ids', () => {
  it('an event id carries its arrival time and 16 random base32 characters', () => {
    const at = Date.parse('2026-11-23T08:00:00.123Z');
    const id = newEventId(at);
    expect(id).toMatch(/^evt_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(timeOfId(id)).toBe(at);
  });

  it('ids stay unique across many draws from the random pool (no byte reused)', () => {
    const ids = new Set(Array.from({ length: 20_000 }, () => newId('ep')));
    expect(ids.size).toBe(20_000);
    const long = newId('x', 5000); // longer than one pool draw
    expect(long).toHaveLength(5002);
  });

  it('random characters are spread over the whole alphabet', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) for (const ch of newId('ep').slice(3)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(32);
    // 40,000 characters over 32 symbols: 1,250 each expected; a stuck or reused pool is far off
    for (const n of counts.values()) expect(n).toBeGreaterThan(1000);
  });
});

describe('ids: the shape newId makes', () => {
  it('recognises every id newId(prefix) makes', () => {
    for (let i = 0; i < 200; i++) expect(isIdOf('ep', newId('ep'))).toBe(true);
  });

  it.each([
    ['another prefix', newId('tg')],
    ['too short', 'ep_0123456789abcdefghj'],
    ['too long', 'ep_0123456789abcdefghjkm'],
    ['upper case', 'ep_0123456789ABCDEFGHJK'],
    ['letters Crockford base32 leaves out (i, l, o, u)', 'ep_0123456789abcdefgilo'],
    ['percent-encoded text', 'ep_%41123456789abcdefgh'],
    ['an 8 KB id', `ep_${'a'.repeat(8192)}`],
    ['empty', ''],
  ])('refuses %s', (_what, text) => {
    expect(isIdOf('ep', text)).toBe(false);
  });

  it('a resend gets a new delivery id under the same event id, and later resends sort after earlier ones', () => {
    const evt = newEventId(Date.parse('2026-11-23T08:00:00Z'));
    const tg = newId('tg');
    const first = deliveryIdFor(evt, tg);
    const early = resendDeliveryId(evt, tg, resendTag(Date.parse('2026-11-24T08:00:00Z')));
    const late = resendDeliveryId(evt, tg, resendTag(Date.parse('2026-11-24T08:00:01Z')));
    expect(early.startsWith(`${first}_r`)).toBe(true);
    expect(early).not.toBe(late);
    expect(deliveryOrderOf(first)).toBe('');
    expect([deliveryOrderOf(late), deliveryOrderOf(first), deliveryOrderOf(early)].sort()).toEqual([
      deliveryOrderOf(first),
      deliveryOrderOf(early),
      deliveryOrderOf(late),
    ]);
  });

  it('a delivery made again tells when it was made; a first delivery does not', () => {
    const evt = newEventId(Date.parse('2026-11-23T08:00:00Z'));
    const at = Date.parse('2026-11-24T08:00:00.123Z');
    expect(timeOfResend(resendDeliveryId(evt, 'tg_1', resendTag(at)))).toBe(at);
    expect(timeOfResend(deliveryIdFor(evt, 'tg_1'))).toBeNull();
  });

  it('a target id whose body starts with r is not taken for a resend tag', () => {
    const evt = newEventId(Date.now());
    expect(deliveryOrderOf(deliveryIdFor(evt, 'tg_r0000000000000000000'))).toBe('');
  });
});
