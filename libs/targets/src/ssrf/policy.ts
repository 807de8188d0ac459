import ipaddr from 'ipaddr.js';
import { embeddedIpv4, parseAddress } from './embedded';

/**
 * Which addresses an outbound delivery may dial (issue "SSRF guard"). Default deny: only
 * globally routable unicast addresses pass. Everything ipaddr.js classifies otherwise is
 * refused — private (RFC 1918), loopback, link-local (169.254/16, fe80::/10), CGNAT
 * (100.64/10), multicast, unspecified (0.0.0.0/8, ::), broadcast, reserved/test ranges,
 * unique-local (fc00::/7) and the IPv6 ranges that tunnel or translate to IPv4 (6to4, Teredo,
 * NAT64) — because any of them can reach a network the operator did not mean to expose.
 * IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address it maps to; every other IPv6
 * form that carries an IPv4 address (IPv4-compatible ::a.b.c.d, IPv4-translated, NAT64, 6to4,
 * Teredo) is refused, naming the IPv4 address it carries and that address's range (embedded.ts).
 */
export interface AddressPolicy {
  /** null when the address may be dialled, otherwise why not */
  check(address: string): string | null;
}

export interface AddressPolicyOptions {
  /** CIDRs an operator exempts (e.g. `127.0.0.0/8` for local receivers in tests); they win over every rule but the metadata list */
  allowCidrs: readonly string[];
}

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Cloud instance-metadata services, refused even when an allowlist CIDR covers them: AWS/GCP/
 * Azure/OpenStack 169.254.169.254, AWS IPv6 fd00:ec2::254, Alibaba 100.100.100.200, and Azure's
 * WireServer 168.63.129.16 (a public address, so the range rules alone would let it through).
 */
const METADATA_CIDRS: readonly string[] = [
  '169.254.169.254/32',
  'fd00:ec2::254/128',
  '100.100.100.200/32',
  '168.63.129.16/32',
];

/** Parses the allowlist; throws one error naming every invalid entry (config fails fast). */
export function parseCidrs(list: readonly string[]): Cidr[] {
  const bad: string[] = [];
  const out: Cidr[] = [];
  for (const raw of list) {
    const entry = raw.trim();
    if (entry === '') continue;
    try {
      const [addr, bits] = ipaddr.parseCIDR(
        entry.includes('/') ? entry : `${entry}/${parseAddress(entry).kind() === 'ipv4' ? 32 : 128}`,
      );
      out.push([
        normalize(addr),
        addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? Math.max(0, bits - 96) : bits,
      ]);
    } catch {
      bad.push(raw);
    }
  }
  if (bad.length) throw new Error(`invalid SSRF allowlist CIDR(s): ${bad.join(', ')}`);
  return out;
}

/** ::ffff:a.b.c.d → a.b.c.d, so a mapped address cannot dodge the IPv4 rules. */
function normalize(addr: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()
    ? (addr as ipaddr.IPv6).toIPv4Address()
    : addr;
}

function inAny(addr: ipaddr.IPv4 | ipaddr.IPv6, cidrs: readonly Cidr[]): boolean {
  return cidrs.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
}

export function createAddressPolicy(opts: AddressPolicyOptions): AddressPolicy {
  const allow = parseCidrs(opts.allowCidrs);
  const metadata = parseCidrs(METADATA_CIDRS);
  return {
    check(address) {
      let addr: ipaddr.IPv4 | ipaddr.IPv6;
      try {
        // strip an IPv6 zone id (fe80::1%eth0): the zone does not change the range
        addr = normalize(parseAddress(address.replace(/%.*$/, '')));
      } catch {
        return `${address} is not an IP address`;
      }
      const carried = addr.kind() === 'ipv6' ? embeddedIpv4(addr as ipaddr.IPv6) : null;
      if (inAny(addr, metadata) || (carried && inAny(carried.ipv4, metadata)))
        return `${address} is a cloud metadata address`;
      // the allowlist names what may be dialled as written: an IPv4 CIDR covers the IPv4 address
      // and its mapped form (the same socket), never a form that reaches it through a translator
      if (inAny(addr, allow)) return null;
      if (carried) {
        const range = carried.ipv4.range();
        const what =
          range === 'unicast' ? 'a public address, reached through a translator or tunnel' : `a ${range} address`;
        return `${address} is ${carried.form} carrying ${carried.ipv4.toString()}, ${what}`;
      }
      const range = addr.range();
      return range === 'unicast' ? null : `${address} is a ${range} address`;
    },
  };
}
