import { cacheChangesChannel, cacheChangesSeqKey, decodeCacheChange, encodeCacheChange } from './cache-changes';

describe('cache change announcements (published by the management API and deliverers, followed by every cache)', () => {
  it('travel on <namespace>:cache-changes, numbered by <namespace>:cache-changes:seq', () => {
    expect(cacheChangesChannel('relay')).toBe('relay:cache-changes');
    expect(cacheChangesSeqKey('relay')).toBe('relay:cache-changes:seq');
  });

  it.each([
    [{ scope: 'endpoint', id: 'ep_1' }, 'endpoint ep_1'],
    [{ scope: 'target', id: 'tg_1', endpoint_id: 'ep_1' }, 'target tg_1 ep_1'],
    [{ scope: 'account', id: 'acc_1' }, 'account acc_1'],
  ] as const)('%j is "%s" after its number, and reads back', (change, text) => {
    expect(encodeCacheChange(change)).toBe(text);
    expect(decodeCacheChange(`7 ${text}`)).toEqual({ seq: 7, ...change });
  });

  it.each(['', 'x endpoint ep_1', '0 endpoint ep_1', '3 endpoint', '3 target tg_1', '3 webhook wh_1'])(
    '"%s" is not a change',
    (text) => {
      expect(decodeCacheChange(text)).toBeNull();
    },
  );
});
