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

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows public unicast %s', (address) => {
    expect(strict.check(address)).toBeNull();
  });

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
    expect(parseCidrs(['10.0.0.5', '::ffff:10.0.0.0/104', ' ']).map(([a, b]) => `${a.toString()}/${b}`)).toEqual(['10.0.0.5/32', '10.0.0.0/8']);
    expect(() => parseCidrs(['10.0.0.0/33', 'nope', '127.0.0.0/8'])).toThrow('invalid SSRF allowlist CIDR(s): 10.0.0.0/33, nope');
  });
});
