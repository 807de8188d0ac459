import { createAddressPolicy, parseCidrs } from './policy';

const strict = createAddressPolicy({ allowCidrs: [] });
const loopbackAllowed = createAddressPolicy({ allowCidrs: ['127.0.0.0/8', '::1'] });

describe('SSRF address policy (issue "SSRF guard")', () => {
  it.each([
    ['private 10/8', '10.1.2.3'],
    ['private 172.16/12', '172.31.255.255'],
    ['private 192.168/16', '192.168.0.1'],
    ['loopback', '127.0.0.1'],
    ['loopback (any of 127/8)', '127.255.0.9'],
    ['link-local', '169.254.10.10'],
    ['cloud metadata', '169.254.169.254'],
    ['CGNAT 100.64/10', '100.64.0.1'],
    ['CGNAT upper end', '100.127.255.254'],
    ['multicast', '239.1.1.1'],
    ['unspecified', '0.0.0.0'],
    ['"this network" 0/8', '0.1.2.3'],
    ['broadcast', '255.255.255.255'],
    ['reserved 240/4', '240.0.0.1'],
    ['TEST-NET', '192.0.2.1'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unspecified', '::'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 link-local with zone', 'fe80::1%eth0'],
    ['IPv6 unique-local', 'fd12:3456::1'],
    ['AWS IPv6 metadata', 'fd00:ec2::254'],
    ['IPv6 multicast', 'ff02::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped private (hex form)', '::ffff:a00:1'],
    ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
    ['NAT64 of a private address', '64:ff9b::a00:1'],
    ['6to4', '2002:7f00:1::1'],
    ['Teredo', '2001:0:4136:e378::1'],
    ['Alibaba metadata (CGNAT)', '100.100.100.200'],
    ['Azure WireServer', '168.63.129.16'],
  ])('refuses %s: %s', (_name, address) => {
    expect(strict.check(address)).toEqual(expect.any(String));
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows public unicast %s',
    (address) => {
      expect(strict.check(address)).toBeNull();
    },
  );

  it('refuses anything that is not an IP address', () => {
    expect(strict.check('localhost')).toMatch(/not an IP address/);
  });

  it('the allowlist exempts its CIDRs, including their IPv4-mapped form', () => {
    expect(loopbackAllowed.check('127.0.0.1')).toBeNull();
    expect(loopbackAllowed.check('127.8.9.10')).toBeNull();
    expect(loopbackAllowed.check('::ffff:127.0.0.1')).toBeNull();
    expect(loopbackAllowed.check('::1')).toBeNull();
    expect(loopbackAllowed.check('10.0.0.1')).toMatch(/private/);
  });

  it('cloud metadata addresses stay refused even when an allowlist CIDR covers them', () => {
    const wide = createAddressPolicy({ allowCidrs: ['169.254.0.0/16', '100.64.0.0/10', 'fd00::/8'] });
    expect(wide.check('169.254.1.1')).toBeNull();
    expect(wide.check('169.254.169.254')).toMatch(/metadata/);
    expect(wide.check('100.100.100.200')).toMatch(/metadata/);
    expect(wide.check('fd00:ec2::254')).toMatch(/metadata/);
  });

  it('parseCidrs accepts bare addresses and mapped CIDRs, and names every invalid entry', () => {
    expect(parseCidrs(['10.0.0.5', '::ffff:10.0.0.0/104', ' ']).map(([a, b]) => `${a.toString()}/${b}`)).toEqual([
      '10.0.0.5/32',
      '10.0.0.0/8',
    ]);
    expect(() => parseCidrs(['10.0.0.0/33', 'nope', '127.0.0.0/8'])).toThrow(
      'invalid SSRF allowlist CIDR(s): 10.0.0.0/33, nope',
    );
  });

  describe('IPv6 forms that carry an IPv4 address are refused, naming it', () => {
    it.each([
      [
        'IPv4-compatible loopback',
        '::7f00:1',
        /^::7f00:1 is an IPv4-compatible address carrying 127\.0\.0\.1, a loopback address$/,
      ],
      [
        'IPv4-compatible loopback, dotted',
        '::127.0.0.1',
        /IPv4-compatible address carrying 127\.0\.0\.1, a loopback address/,
      ],
      ['IPv4-compatible private', '::a00:1', /IPv4-compatible address carrying 10\.0\.0\.1, a private address/],
      [
        'IPv4-compatible public',
        '::808:808',
        /IPv4-compatible address carrying 8\.8\.8\.8, a public address, reached through a translator or tunnel/,
      ],
      ['IPv4-compatible metadata', '::a9fe:a9fe', /cloud metadata address/],
      ['IPv4-mapped loopback (judged as the IPv4 address)', '::ffff:7f00:1', /loopback/],
      [
        'IPv4-translated loopback',
        '::ffff:0:7f00:1',
        /IPv4-translated address carrying 127\.0\.0\.1, a loopback address/,
      ],
      ['NAT64 loopback', '64:ff9b::7f00:1', /NAT64 address carrying 127\.0\.0\.1, a loopback address/],
      ['NAT64 private, dotted', '64:ff9b::10.0.0.1', /NAT64 address carrying 10\.0\.0\.1, a private address/],
      ['NAT64 metadata', '64:ff9b::169.254.169.254', /cloud metadata address/],
      ['NAT64 public', '64:ff9b::808:808', /NAT64 address carrying 8\.8\.8\.8, a public address/],
      [
        'local-use NAT64 private (RFC 6052 /48 layout)',
        '64:ff9b:1:a00:0:100::',
        /local-use NAT64 address carrying 10\.0\.0\.1, a private address/,
      ],
      ['6to4 of loopback', '2002:7f00:1::1', /6to4 address carrying 127\.0\.0\.1, a loopback address/],
      ['6to4 of private 192.168/16', '2002:c0a8:101::1', /6to4 address carrying 192\.168\.1\.1, a private address/],
      ['6to4 of private 10/8', '2002:a00:1::', /6to4 address carrying 10\.0\.0\.1, a private address/],
      ['6to4 of a public address', '2002:808:808::1', /6to4 address carrying 8\.8\.8\.8, a public address/],
      [
        'Teredo (client 192.0.2.45, RFC 4380 example)',
        '2001:0:4136:e378:8000:63bf:3fff:fdd2',
        /Teredo address carrying 192\.0\.2\.45/,
      ],
    ])('%s: %s', (_name, address, reason) => {
      expect(strict.check(address)).toMatch(reason);
    });

    it('an IPv4 allowlist entry covers the IPv4 address and its mapped form, never a translated or tunnelled one', () => {
      expect(loopbackAllowed.check('::ffff:127.0.0.1')).toBeNull();
      for (const address of ['::7f00:1', '::ffff:0:7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::1'])
        expect(loopbackAllowed.check(address)).toMatch(/carrying 127\.0\.0\.1, a loopback address/);
    });

    it('an explicit IPv6 allowlist entry still exempts such a range, except where it carries a metadata address', () => {
      const nat64 = createAddressPolicy({ allowCidrs: ['64:ff9b::/96'] });
      expect(nat64.check('64:ff9b::808:808')).toBeNull();
      expect(nat64.check('64:ff9b::a9fe:a9fe')).toMatch(/metadata/);
    });

    it(':: and ::1 keep their own ranges', () => {
      expect(strict.check('::')).toBe(':: is a unspecified address');
      expect(strict.check('::1')).toBe('::1 is a loopback address');
    });
  });
});
