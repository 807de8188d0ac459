import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSsrfAgents, guardedLookup, parseHostRoutes, SsrfBlockedError } from './agents';
import { createAddressPolicy } from './policy';

const policy = createAddressPolicy({ allowCidrs: [] });
const answering =
  (addresses: LookupAddress[]): LookupFunction =>
  (_h, opts, cb) =>
    opts.all ? cb(null, addresses) : cb(null, addresses[0]?.address ?? '', addresses[0]?.family ?? 4);

function resolve(
  lookup: LookupFunction,
  all: boolean,
): Promise<{ err: NodeJS.ErrnoException | null; address: unknown }> {
  return new Promise((done) => lookup('victim.example', { all }, (err, address) => done({ err, address })));
}

describe('guardedLookup: the check runs on the answer the socket dials (DNS rebinding)', () => {
  it('refuses a hostname whose answer is private, with SSRF_BLOCKED', async () => {
    const { err } = await resolve(guardedLookup(policy, answering([{ address: '10.0.0.7', family: 4 }])), false);
    expect(err).toBeInstanceOf(SsrfBlockedError);
    expect(err?.code).toBe('SSRF_BLOCKED');
    expect(err?.message).toBe('SSRF guard refused victim.example: 10.0.0.7 is a private address');
  });

  it('judges every answer of its own lookup, so a rebinding second answer is caught', async () => {
    let calls = 0;
    const rebinding: LookupFunction = (h, o, cb) =>
      answering([{ address: calls++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }])(h, o, cb);
    const guarded = guardedLookup(policy, rebinding);
    expect((await resolve(guarded, false)).err).toBeNull();
    expect((await resolve(guarded, false)).err?.code).toBe('SSRF_BLOCKED');
  });

  it('with all addresses (happy eyeballs) drops refused ones and keeps the public ones', async () => {
    const mixed = answering([
      { address: '127.0.0.1', family: 4 },
      { address: '93.184.216.34', family: 4 },
      { address: '::ffff:10.0.0.1', family: 6 },
    ]);
    expect(await resolve(guardedLookup(policy, mixed), true)).toEqual({
      err: null,
      address: [{ address: '93.184.216.34', family: 4 }],
    });
  });

  it('with all addresses refused, fails with SSRF_BLOCKED', async () => {
    const { err } = await resolve(
      guardedLookup(
        policy,
        answering([
          { address: '::1', family: 6 },
          { address: '127.0.0.1', family: 4 },
        ]),
      ),
      true,
    );
    expect(err?.code).toBe('SSRF_BLOCKED');
  });

  it('passes resolver errors through unchanged', async () => {
    const failing: LookupFunction = (_h, _o, cb) => cb(Object.assign(new Error('nx'), { code: 'ENOTFOUND' }), '');
    expect((await resolve(guardedLookup(policy, failing), false)).err?.code).toBe('ENOTFOUND');
  });
});

describe('host routes (HOST_ROUTES): another address for a host name, never around the guard', () => {
  it('parses host=address:port, IPv6 in brackets', () => {
    const open = createAddressPolicy({ allowCidrs: ['127.0.0.1/32', '::1/128'] });
    expect([...parseHostRoutes(['API.Telegram.org=127.0.0.1:8443', 'hooks.slack.com=[::1]:443'], open)]).toEqual([
      ['api.telegram.org', { address: '127.0.0.1', port: 8443 }],
      ['hooks.slack.com', { address: '::1', port: 443 }],
    ]);
  });

  it('refuses an address the SSRF guard refuses, and entries that are not host=IP:port', () => {
    expect(() => parseHostRoutes(['api.telegram.org=127.0.0.1:8443'], policy)).toThrow(
      'HOST_ROUTES: api.telegram.org=127.0.0.1:8443: the SSRF guard refuses 127.0.0.1 (127.0.0.1 is a loopback address); allow it in SSRF_ALLOW_CIDRS first',
    );
    expect(() =>
      parseHostRoutes(['discord.com=169.254.169.254:80'], createAddressPolicy({ allowCidrs: ['169.254.0.0/16'] })),
    ).toThrow(/the SSRF guard refuses 169\.254\.169\.254/);
    expect(() => parseHostRoutes(['discord.com=egress.internal:443', 'x=1.2.3.4', 'y=1.2.3.4:70000'], policy)).toThrow(
      /egress\.internal:443: expected host=address:port.*x=1\.2\.3\.4: expected.*y=1\.2\.3\.4:70000: expected/,
    );
  });

  it('connects a routed host to its address, keeping the URL, the Host header and the guard', async () => {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(String(req.headers.host));
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const allow = ['127.0.0.1/32'];
    const agents = createSsrfAgents({
      allowCidrs: allow,
      routes: parseHostRoutes([`hooks.example.test=127.0.0.1:${port}`], createAddressPolicy({ allowCidrs: allow })),
    });
    try {
      const body = await new Promise<string>((resolve, reject) => {
        http
          .get('http://hooks.example.test/in', { agent: agents.http }, (res) => {
            let text = '';
            res.on('data', (c) => (text += c));
            res.on('end', () => resolve(text));
          })
          .on('error', reject);
      });
      expect(body).toBe('ok');
      expect(seen).toEqual(['hooks.example.test']);
      // an unrouted name still resolves through DNS and the guard
      const refused = await new Promise<NodeJS.ErrnoException>((resolve) =>
        http.get('http://localhost:1/', { agent: createSsrfAgents({ allowCidrs: [] }).http }).on('error', resolve),
      );
      expect(refused.code).toBe('SSRF_BLOCKED');
    } finally {
      agents.http.destroy();
      server.close();
    }
  });
});
