import { parseIpRange, validateIpAccessLists } from './ip-lists';

describe('validateIpAccessLists (save time)', () => {
  it.each([
    '203.0.113.0/24',
    '203.0.113.7',
    '0.0.0.0/0',
    '2001:db8::/32',
    '::1',
    '::/0',
    '::ffff:10.0.0.0/104',
    '10.0.0.1/8',
  ])('accepts %s', (entry) => {
    expect(validateIpAccessLists({ allow: [entry], deny: [] }).ok).toBe(true);
  });

  it.each([
    ['a prefix beyond /32', '10.0.0.0/33'],
    ['a prefix beyond /128', '2001:db8::/129'],
    ['an octal-looking IPv4 address', '010.1.2.3'],
    ['a short IPv4 address', '10.1'],
    ['a host name', 'example.com'],
    ['an empty prefix', '10.0.0.0/'],
    ['a prefix with a sign', '10.0.0.0/+8'],
    ['an IPv6 zone', 'fe80::1%eth0'],
    ['surrounding spaces', ' 10.0.0.0/8'],
  ])('validator rejects bad CIDRs: %s', (_case, entry) => {
    expect(validateIpAccessLists({ allow: [], deny: ['192.0.2.0/24', entry] })).toEqual({
      ok: false,
      errors: [{ field: 'ip_access.deny[1]', message: expect.stringContaining('CIDR') }],
    });
  });

  it('requires both lists', () => {
    const result = validateIpAccessLists({ allow: [] });
    expect(!result.ok && result.errors).toEqual([{ field: 'ip_access.deny', message: 'is required' }]);
  });
});

describe('parseIpRange', () => {
  it('reads an IPv4-mapped IPv6 range as the IPv4 range it denotes', () => {
    const range = parseIpRange('::ffff:10.0.0.0/104');
    expect(range?.kind).toBe('ipv4');
    expect(range && [String(range.range[0]), range.range[1]]).toEqual(['10.0.0.0', 8]);
  });

  it('a bare address is a single host', () => {
    expect(parseIpRange('2001:db8::1')?.range[1]).toBe(128);
    expect(parseIpRange('192.0.2.1')?.range[1]).toBe(32);
  });
});
