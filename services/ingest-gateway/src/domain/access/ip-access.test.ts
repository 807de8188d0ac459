import { compileIpAccess } from './ip-access';

describe('IP allow and deny lists (outcome IP_BLOCKED)', () => {
  it.each([
    ['an empty allow list allows all', [], [], '198.51.100.7', true],
    ['IPv4 address inside an allowed range', ['203.0.113.0/24'], [], '203.0.113.9', true],
    ['IPv4 address outside every allowed range', ['203.0.113.0/24'], [], '203.0.114.9', false],
    ['a bare address allows that host only', ['203.0.113.5'], [], '203.0.113.6', false],
    ['IPv6 address inside an allowed range', ['2001:db8::/32'], [], '2001:db8:1::42', true],
    ['IPv6 address outside every allowed range', ['2001:db8::/32'], [], '2001:db9::1', false],
    ['IPv4-mapped IPv6 source ::ffff:1.2.3.4 is treated as IPv4', ['1.2.3.0/24'], [], '::ffff:1.2.3.4', true],
    ['IPv4-mapped IPv6 source is denied by an IPv4 deny range', [], ['1.2.3.4/32'], '::ffff:1.2.3.4', false],
    ['IPv4-mapped IPv6 range matches IPv4 sources', ['::ffff:10.0.0.0/104'], [], '10.20.30.40', true],
    ['deny wins over allow', ['10.0.0.0/8'], ['10.1.0.0/16'], '10.1.2.3', false],
    ['deny list alone blocks only what it names (denied)', [], ['192.0.2.0/24'], '192.0.2.1', false],
    ['deny list alone blocks only what it names (other)', [], ['192.0.2.0/24'], '192.0.3.1', true],
    ['an IPv4 range never matches an IPv6 source', ['0.0.0.0/0'], [], '2001:db8::1', false],
    ['an IPv6 range never matches an IPv4 source', ['::/0'], [], '192.0.2.1', false],
    ['an unparseable source address is blocked when a list is set', ['0.0.0.0/0'], [], 'unknown', false],
    ['an unparseable source address passes when no list is set', [], [], 'unknown', true],
  ])('%s', (_row, allow, deny, source, allowed) => {
    expect(compileIpAccess({ allow, deny })(source).ok).toBe(allowed);
  });

  it('a blocked request gets 403 IP_BLOCKED without naming the list', () => {
    expect(compileIpAccess({ allow: ['10.0.0.0/8'], deny: [] })('192.0.2.1')).toEqual({
      ok: false,
      status: 403,
      code: 'IP_BLOCKED',
      message: 'Requests from this IP address are not accepted by this endpoint.',
    });
  });

  it('a stored entry that is not a CIDR range fails loudly instead of being skipped', () => {
    expect(() => compileIpAccess({ allow: [], deny: ['10.0.0.0/33'] })).toThrow(/invalid IP list entry/);
  });
});
