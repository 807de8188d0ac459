/**
 * The URL as received, and the same URL with its default port removed or added. A proxy or
 * load balancer may add or drop `:443`, so Twilio's own validator tries both forms; Square's
 * check uses the same set. Only the authority changes: path and query keep their exact bytes.
 */
export function urlPortVariants(url: string): string[] {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is.exec(url);
  if (!match) return [url];
  const [, scheme = '', authority = '', rest = ''] = match;
  const at = authority.lastIndexOf('@');
  const userInfo = authority.slice(0, at + 1);
  const hostPort = authority.slice(at + 1);
  // A colon starts the port only after the closing bracket of an IPv6 literal.
  const colon = hostPort.indexOf(':', hostPort.lastIndexOf(']') + 1);
  const host = colon < 0 ? hostPort : hostPort.slice(0, colon);
  const defaultPort = scheme.toLowerCase() === 'https://' ? ':443' : ':80';
  const withoutPort = scheme + userInfo + host + rest;
  const withPort = colon < 0 ? scheme + userInfo + host + defaultPort + rest : url;
  return [...new Set([url, withoutPort, withPort])];
}
