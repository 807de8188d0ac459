import { isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * IPv6 addresses that carry an IPv4 address (`::7f00:1` was classified as
 * public unicast). Each form reaches the IPv4 address it carries — through the host's own
 * stack, a NAT64 translator or a tunnel — so the SSRF policy refuses them all and says which
 * IPv4 address is inside. IPv4-mapped `::ffff:0:0/96` is not here: the policy judges it as the
 * IPv4 address itself (it is the same socket).
 */
export interface EmbeddedIpv4 {
  /** how the address carries it, for the refusal's reason */
  form: string;
  ipv4: ipaddr.IPv4;
}

const v4 = (high: number, low: number): ipaddr.IPv4 => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

export function embeddedIpv4(addr: ipaddr.IPv6): EmbeddedIpv4 | null {
  const p = addr.parts;
  const zero = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  // ::a.b.c.d (RFC 4291 §2.5.5.1, deprecated); :: and ::1 keep their own ranges
  if (zero(0, 6) && (p[6] !== 0 || p[7]! > 1)) return { form: 'an IPv4-compatible address', ipv4: v4(p[6]!, p[7]!) };
  // ::ffff:0:a.b.c.d (RFC 6145/SIIT)
  if (zero(0, 4) && p[4] === 0xffff && p[5] === 0)
    return { form: 'an IPv4-translated address', ipv4: v4(p[6]!, p[7]!) };
  // 64:ff9b::/96, the well-known NAT64 prefix (RFC 6052)
  if (p[0] === 0x64 && p[1] === 0xff9b && zero(2, 6)) return { form: 'a NAT64 address', ipv4: v4(p[6]!, p[7]!) };
  // 64:ff9b:1::/48, local-use NAT64 (RFC 8215): IPv4 in bits 48–63 and 72–87 (RFC 6052 §2.2, /48)
  if (p[0] === 0x64 && p[1] === 0xff9b && p[2] === 1)
    return { form: 'a local-use NAT64 address', ipv4: v4(p[3]!, ((p[4]! & 0xff) << 8) | (p[5]! >> 8)) };
  // 2002:a.b.c.d::/48, 6to4 (RFC 3056)
  if (p[0] === 0x2002) return { form: 'a 6to4 address', ipv4: v4(p[1]!, p[2]!) };
  // 2001:0::/32, Teredo (RFC 4380): the client's IPv4 address, bit-inverted, in the last 32 bits
  if (p[0] === 0x2001 && p[1] === 0) return { form: 'a Teredo address', ipv4: v4(~p[6]! & 0xffff, ~p[7]! & 0xffff) };
  return null;
}

/**
 * ipaddr.parse, also for the IPv6 spellings it does not read (`::127.0.0.1`,
 * `64:ff9b::10.0.0.1`): Node's own URL parser writes any IPv6 literal in canonical hex first.
 */
export function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  if (!isIPv6(address)) return ipaddr.parse(address);
  return ipaddr.parse(new URL(`http://[${address}]/`).hostname.slice(1, -1));
}
