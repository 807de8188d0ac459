import * as dns from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import type { Duplex } from 'node:stream';
import { createAddressPolicy } from './policy';
import type { AddressPolicy } from './policy';

/** A delivery refused by the SSRF guard; surfaces as the send outcome's network failure code. */
export class SsrfBlockedError extends Error {
  readonly code = 'SSRF_BLOCKED';
  constructor(host: string, reason: string) {
    super(`SSRF guard refused ${host}: ${reason}`);
    this.name = 'SsrfBlockedError';
  }
}

export interface SsrfAgentOptions {
  /** CIDRs exempt from the guard (operator setting SSRF_ALLOW_CIDRS); empty = none */
  allowCidrs: readonly string[];
  /** the resolver to guard; defaults to dns.lookup (tests pass a fake to simulate DNS answers) */
  lookup?: net.LookupFunction;
  keepAlive?: boolean;
  /** extra trust anchors (PEM) for HTTPS, e.g. an API behind a private CA; certificates are verified either way */
  ca?: string;
  /** host routes (operator setting HOST_ROUTES, parseHostRoutes): connect to another address for a host name */
  routes?: HostRoutes;
  /** a client certificate (PEM, the leaf first) and its key, presented when the server asks (mutual TLS) */
  clientCertificate?: { cert: string; key: string };
}

/**
 * Host routes: for a destination host name, the address and port to connect to instead of what
 * DNS answers — like curl's `--connect-to` (e.g. a chat platform reached through the operator's
 * private egress endpoint). The request keeps its URL, Host header and TLS server name, so the
 * certificate is still verified for the real host name; the routed address must be an IP literal
 * and still passes the SSRF guard on every connection.
 */
export type HostRoutes = ReadonlyMap<string, { address: string; port: number }>;

/**
 * Parses `host=address:port` entries (IPv6 as `[addr]:port`); throws one error naming every bad
 * entry, and every route whose address the SSRF policy refuses — a route is never a way around
 * the guard, so an address outside the allow-list (SSRF_ALLOW_CIDRS) must be a public one.
 */
export function parseHostRoutes(list: readonly string[], policy: AddressPolicy): HostRoutes {
  const routes = new Map<string, { address: string; port: number }>();
  const bad: string[] = [];
  for (const raw of list) {
    const entry = raw.trim();
    if (entry === '') continue;
    const m = /^([a-z0-9.-]+)=(?:\[([0-9a-f:.]+)\]|([0-9.]+)):(\d{1,5})$/i.exec(entry);
    const address = m ? (m[2] ?? m[3])! : '';
    const port = m ? Number(m[4]) : 0;
    if (!m || net.isIP(address) === 0 || port < 1 || port > 65535) {
      bad.push(`${entry}: expected host=address:port with an IP address`);
      continue;
    }
    const reason = policy.check(address);
    if (reason) {
      bad.push(`${entry}: the SSRF guard refuses ${address} (${reason}); allow it in SSRF_ALLOW_CIDRS first`);
      continue;
    }
    routes.set(m[1]!.toLowerCase(), { address, port });
  }
  if (bad.length > 0) throw new Error(`HOST_ROUTES: ${bad.join('; ')}`);
  return routes;
}

/** The connection options for a routed host: its address and port, the real name kept for TLS. */
function routed(routes: HostRoutes | undefined, options: http.ClientRequestArgs): http.ClientRequestArgs {
  const host = (options.host ?? options.hostname ?? '').toLowerCase();
  const route = routes?.get(host);
  if (!route) return options;
  return {
    ...options,
    host: route.address,
    hostname: route.address,
    port: route.port,
    servername: (options as { servername?: string }).servername ?? host,
  } as http.ClientRequestArgs;
}

/** got's `agent` option shape */
export interface SsrfAgents {
  http: http.Agent;
  https: https.Agent;
}

type ConnectCallback = (err: Error | null, stream: Duplex) => void;

/**
 * Wraps a resolver so that only permitted addresses come back. This runs inside net.connect,
 * so the address checked is the address dialled — a second, different DNS answer (DNS
 * rebinding) cannot slip past a check made earlier. With `all` (Node's happy-eyeballs path)
 * refused addresses are dropped and the connection fails only when none remains.
 */
export function guardedLookup(policy: AddressPolicy, base: net.LookupFunction): net.LookupFunction {
  return (hostname, options, callback) => {
    base(hostname, options, (err, address, family) => {
      if (err) return callback(err, address, family);
      if (Array.isArray(address)) {
        const allowed = address.filter((a) => policy.check(a.address) === null);
        if (allowed.length > 0) return callback(null, allowed);
        const first = address[0];
        return callback(new SsrfBlockedError(hostname, first ? (policy.check(first.address) ?? '') : 'no address'), []);
      }
      const reason = policy.check(address);
      if (reason) return callback(new SsrfBlockedError(hostname, reason), '', family);
      return callback(null, address, family);
    });
  };
}

/**
 * Decides before any socket exists: literal IP hosts are never resolved by net.connect, so
 * they are checked here; got 11's `http://unix:/path:/` form sets socketPath, which would
 * dial a local socket, so it is refused outright. Returns the options to connect with.
 */
function guardConnection(
  policy: AddressPolicy,
  base: net.LookupFunction,
  options: http.ClientRequestArgs,
): http.ClientRequestArgs | Error {
  const host = options.host ?? options.hostname ?? '';
  if (options.socketPath) return new SsrfBlockedError(options.socketPath, 'unix socket targets are never dialled');
  if (net.isIP(host) !== 0) {
    const reason = policy.check(host);
    if (reason) return new SsrfBlockedError(host, reason);
    return options;
  }
  const lookup = (options as { lookup?: net.LookupFunction }).lookup ?? base;
  return { ...options, lookup: guardedLookup(policy, lookup) } as http.ClientRequestArgs;
}

function refuse(err: Error, callback: ConnectCallback | undefined): undefined {
  if (!callback) throw err;
  // Node's Agent accepts a socket-or-error via the callback; deferring keeps it asynchronous
  process.nextTick(() => callback(err, undefined as unknown as Duplex));
  return undefined;
}

class GuardedHttpAgent extends http.Agent {
  constructor(
    private readonly policy: AddressPolicy,
    private readonly baseLookup: net.LookupFunction,
    opts: http.AgentOptions,
    private readonly routes?: HostRoutes,
  ) {
    super(opts);
  }

  override createConnection(options: http.ClientRequestArgs, callback?: ConnectCallback): Duplex | null | undefined {
    const guarded = guardConnection(this.policy, this.baseLookup, routed(this.routes, options));
    return guarded instanceof Error ? refuse(guarded, callback) : super.createConnection(guarded, callback);
  }
}

class GuardedHttpsAgent extends https.Agent {
  constructor(
    private readonly policy: AddressPolicy,
    private readonly baseLookup: net.LookupFunction,
    opts: https.AgentOptions,
    private readonly routes?: HostRoutes,
  ) {
    // Certificates are always verified (spec "Outbound": even with Enforce HTTPS off)
    super({ ...opts, rejectUnauthorized: true });
  }

  override createConnection(options: https.RequestOptions, callback?: ConnectCallback): Duplex | null | undefined {
    const guarded = guardConnection(this.policy, this.baseLookup, routed(this.routes, options));
    return guarded instanceof Error
      ? refuse(guarded, callback)
      : super.createConnection({ ...guarded, rejectUnauthorized: true }, callback);
  }
}

/** The http/https agents every outbound delivery uses (issue "SSRF guard"). */
export function createSsrfAgents(opts: SsrfAgentOptions): SsrfAgents {
  const policy = createAddressPolicy({ allowCidrs: opts.allowCidrs });
  const base = opts.lookup ?? (dns.lookup as unknown as net.LookupFunction);
  const agentOpts = { keepAlive: opts.keepAlive ?? true };
  const httpsOpts = {
    ...agentOpts,
    ...(opts.ca !== undefined ? { ca: opts.ca } : {}),
    ...(opts.clientCertificate ? { cert: opts.clientCertificate.cert, key: opts.clientCertificate.key } : {}),
  };
  return {
    http: new GuardedHttpAgent(policy, base, agentOpts, opts.routes),
    https: new GuardedHttpsAgent(policy, base, httpsOpts, opts.routes),
  };
}
