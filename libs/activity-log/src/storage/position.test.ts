import { decodePosition, encodePosition, isAfter } from './position';

describe('activity list cursor positions', () => {
  it('round-trips and refuses anything else', () => {
    const p = { hour: '2026-11-23T05', page: 3, index: 17 };
    expect(decodePosition(encodePosition(p))).toEqual(p);
    expect(decodePosition('nonsense')).toBeNull();
    expect(decodePosition(Buffer.from('2026-11-23T05|x|1').toString('base64url'))).toBeNull();
  });

  it('orders newest first: older hour, then lower page, then lower index come after', () => {
    const c = { hour: '2026-11-23T05', page: 2, index: 5 };
    expect(isAfter(c, '2026-11-23T04', 9, 9)).toBe(true);
    expect(isAfter(c, '2026-11-23T06', 0, 0)).toBe(false);
    expect(isAfter(c, '2026-11-23T05', 1, 99)).toBe(true);
    expect(isAfter(c, '2026-11-23T05', 2, 4)).toBe(true);
    expect(isAfter(c, '2026-11-23T05', 2, 5)).toBe(false);
    expect(isAfter({ ...c, page: -1 }, '2026-11-23T05', 0, 0)).toBe(false); // page -1: nothing of that hour
    expect(isAfter(null, '2026-11-23T05', 0, 0)).toBe(true);
  });
});
