import { isIdOf, newId } from './ids';

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
});
