import { IP_BUCKETS, collections, isAccountScope, groupScope, ipScope, scopesOfRow } from './keys';

describe('the scopes a row is listed under', () => {
  const row = { account_id: 'acc_1', endpoint_id: 'ep_1', status: 'completed', test: false };

  it('a completed row: its account and its endpoint only (Completed is most rows; the plain scope serves it)', () => {
    expect(scopesOfRow(row)).toEqual(['a:acc_1', 'e:ep_1']);
  });

  it('a row in Errors or Pending also under that group of each; a row with a reason or a delivery error under texts', () => {
    expect(scopesOfRow({ ...row, status: 'errors' })).toEqual(['a:acc_1', 'a:acc_1#errors', 'e:ep_1', 'e:ep_1#errors']);
    expect(scopesOfRow({ ...row, status: 'errors', reason: 'invalid bearer token' })).toEqual([
      'a:acc_1',
      'a:acc_1#errors',
      'a:acc_1#texts',
      'e:ep_1',
      'e:ep_1#errors',
      'e:ep_1#texts',
    ]);
    expect(scopesOfRow({ ...row, status: 'pending', reason: null, last_error: 'HTTP 503' })).toEqual([
      'a:acc_1',
      'a:acc_1#pending',
      'a:acc_1#texts',
      'e:ep_1',
      'e:ep_1#pending',
      'e:ep_1#texts',
    ]);
  });

  it('a test row is in the Test group only, never in Errors or Pending (All still lists it: the plain scopes)', () => {
    expect(scopesOfRow({ ...row, status: 'pending', test: true })).toEqual([
      'a:acc_1',
      'a:acc_1#test',
      'e:ep_1',
      'e:ep_1#test',
    ]);
    expect(scopesOfRow({ ...row, status: 'errors', test: true, last_error: 'HTTP 500' })).toEqual([
      'a:acc_1',
      'a:acc_1#test',
      'a:acc_1#texts',
      'e:ep_1',
      'e:ep_1#test',
      'e:ep_1#texts',
    ]);
    expect(groupScope('e:ep_1', 'test')).toBe('e:ep_1#test');
  });

  it("a row with a source IP, also under its address's bucket of the account (the source-IP filter reads that bucket)", () => {
    expect(scopesOfRow({ ...row, source_ip: '203.0.113.7' })).toEqual([
      'a:acc_1',
      'e:ep_1',
      ipScope('a:acc_1', '203.0.113.7'),
    ]);
    expect(scopesOfRow({ ...row, source_ip: null })).toEqual(['a:acc_1', 'e:ep_1']);
  });
});

describe('source-IP buckets', () => {
  it('one address is always in the same bucket (rows written by one writer are read by another, later)', () => {
    expect(ipScope('a:acc_1', '203.0.113.7')).toBe(ipScope('a:acc_1', '203.0.113.7'));
    expect(ipScope('a:acc_1', '203.0.113.7')).toMatch(/^a:acc_1#ip[0-9a-f]{2}$/);
  });

  it(`addresses spread over all ${IP_BUCKETS} buckets, none holding more than twice its share`, () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 64_000; i++) {
      const scope = ipScope('a:x', `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      counts.set(scope, (counts.get(scope) ?? 0) + 1);
    }
    expect(counts.size).toBe(IP_BUCKETS);
    expect(Math.max(...counts.values())).toBeLessThan((2 * 64_000) / IP_BUCKETS);
  });
});

describe('the index collections of an hour', () => {
  it("every scope's pages of an hour in one collection: a flush makes one index insert an hour", () => {
    const hour = '2026-11-23T10';
    const scopes = [
      'a:acc_1',
      'e:ep_1',
      'e:ep_1#errors',
      'a:acc_1#texts',
      'a:acc_1#ip00',
      ipScope('a:acc_1', '203.0.113.7'),
    ];
    expect(new Set(scopes.map(() => collections.index(hour)))).toEqual(new Set(['activity_ix_2026112310']));
    expect(collections.index('2026-11-24T03')).toBe('activity_ix_2026112403');
  });

  it('only plain account scopes count as account scopes (never held)', () => {
    expect(isAccountScope('a:acc_1')).toBe(true);
    for (const s of ['e:ep_1', 'a:acc_1#errors', 'a:acc_1#ip2f', 'e:ep_1#texts']) expect(isAccountScope(s)).toBe(false);
  });

  it('retention knows the index collection as a partition of its hour, and those of earlier layouts too', () => {
    const names = [
      'activity_ix_2026112310',
      'activity_ixe_2026112310',
      'activity_ixg_2026112310',
      'activity_ixi_2026112310',
      'activity_ixi0_2026112310',
      'activity_ixi7_2026112310',
    ];
    for (const name of names) expect(collections.keyOf(name)).toEqual({ kind: 'index', key: '2026-11-23T10' });
    expect(collections.keyOf('activity_ixq_2026112310')).toBeNull();
    expect(collections.keyOf('activity_ixi8_2026112310')).toBeNull();
  });
});
