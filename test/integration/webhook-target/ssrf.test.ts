import * as net from 'node:net';
import type { LookupFunction } from 'node:net';
import { createSender, sendRequest } from '../../../libs/targets/src/http/send';
import { createSsrfAgents } from '../../../libs/targets/src/ssrf';
import type { SendOutcome } from '@relay/targets';
import { TestReceiver } from '../../support/receiver';

// Every test here sends traffic only to loopback; non-loopback addresses are refused before a
// socket exists, which the net.Socket#connect spy proves.
const LOOPBACK = ['127.0.0.0/8', '::1/128'];
const post = (url: string, allowCidrs: string[] = []) =>
  createSender({ timeoutMs: 2000, allowCidrs })({ url, headers: {}, body: Buffer.from('{}') });
const codeOf = (o: SendOutcome) => ('error' in o ? o.error.code : `HTTP ${o.response.status}`);

describe('SSRF guard (issue "SSRF guard")', () => {
  let receiver: TestReceiver;
  let connect: jest.SpyInstance;
  beforeEach(async () => {
    receiver = await TestReceiver.start();
    connect = jest.spyOn(net.Socket.prototype, 'connect');
  });
  afterEach(async () => {
    connect.mockRestore();
    await receiver.close();
  });

  it.each([
    ['private 10/8', 'http://10.0.0.1/'],
    ['private 172.16/12', 'http://172.16.0.1/'],
    ['private 192.168/16', 'http://192.168.1.1/'],
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
    ['link-local', 'http://169.254.1.1/'],
    ['CGNAT 100.64/10', 'http://100.64.0.1/'],
    ['multicast', 'http://224.0.0.1/'],
    ['unspecified 0.0.0.0', 'http://0.0.0.0/'],
    ['IPv6 loopback', 'http://[::1]/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['IPv6 unique-local', 'http://[fd00::1]/'],
    ['IPv6 unspecified', 'http://[::]/'],
    ['IPv4-mapped IPv6 private', 'http://[::ffff:10.0.0.1]/'],
    ['HTTPS to a private address', 'https://192.168.1.1/'],
    ['got unix socket form', 'http://unix:/var/run/docker.sock:/containers/json'],
  ])('refuses a literal %s address before any connection: %s', async (_name, url) => {
    const outcome = await post(url);
    expect(codeOf(outcome)).toBe('SSRF_BLOCKED');
    expect(connect).not.toHaveBeenCalled();
  });

  it.each([
    ['IPv4-compatible', '[::7f00:1]'],
    ['IPv4-compatible, dotted', '[::127.0.0.1]'],
    ['IPv4-translated', '[::ffff:0:7f00:1]'],
    ['NAT64', '[64:ff9b::7f00:1]'],
    ['6to4', '[2002:7f00:1::1]'],
  ])(
    'refuses loopback carried in an IPv6 address (%s form, %s) before any connection, even with loopback allowlisted',
    async (_name, host) => {
      const outcome = await post(`http://${host}:${receiver.port}/`, LOOPBACK);
      expect(outcome).toMatchObject({
        error: { code: 'SSRF_BLOCKED', message: expect.stringContaining('carrying 127.0.0.1, a loopback address') },
      });
      expect(connect).not.toHaveBeenCalled();
      expect(receiver.requests).toHaveLength(0);
    },
  );

  it('refuses loopback 127.0.0.1 when the allowlist is off', async () => {
    expect(codeOf(await post(receiver.url()))).toBe('SSRF_BLOCKED');
    expect(connect).not.toHaveBeenCalled();
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses IPv4-mapped IPv6 loopback [::ffff:127.0.0.1] when the allowlist is off', async () => {
    expect(codeOf(await post(`http://[::ffff:127.0.0.1]:${receiver.port}/`))).toBe('SSRF_BLOCKED');
    expect(connect).not.toHaveBeenCalled();
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses a hostname resolving to loopback (localhost) after DNS resolution', async () => {
    const outcome = await post(`http://localhost:${receiver.port}/`);
    expect(codeOf(outcome)).toBe('SSRF_BLOCKED');
    expect('error' in outcome && outcome.error.message).toMatch(/localhost/);
    expect(receiver.requests).toHaveLength(0);
  });

  it('checks the address actually dialled, not an earlier answer (DNS rebinding)', async () => {
    // a resolver that answers loopback for a public-looking name, as a rebinding DNS server would
    const rebinding: LookupFunction = (_host, opts, cb) =>
      opts.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4);
    const agent = createSsrfAgents({ allowCidrs: [], lookup: rebinding });
    const outcome = await sendRequest(
      { url: `http://rebind.example.com:${receiver.port}/`, headers: {}, body: Buffer.alloc(0) },
      { timeoutMs: 2000, agent },
    );
    expect(codeOf(outcome)).toBe('SSRF_BLOCKED');
    expect(receiver.requests).toHaveLength(0);
  });

  it('delivers to an allowlisted CIDR (operators and tests run receivers on 127.0.0.1)', async () => {
    expect(codeOf(await post(receiver.url(), LOOPBACK))).toBe('HTTP 200');
    expect(codeOf(await post(`http://localhost:${receiver.port}/`, LOOPBACK))).toBe('HTTP 200');
    expect(receiver.requests).toHaveLength(2);
    expect(connect).toHaveBeenCalled(); // the spy the refusals above rely on does see real connects
  });

  it('the allowlist does not open other private ranges', async () => {
    expect(codeOf(await post('http://10.0.0.1/', LOOPBACK))).toBe('SSRF_BLOCKED');
    expect(codeOf(await post('http://169.254.169.254/', ['169.254.0.0/16']))).toBe('SSRF_BLOCKED');
  });

  it('never follows a redirect: a 302 to another loopback server sends nothing there', async () => {
    const other = await TestReceiver.start();
    try {
      receiver.respondWith({ status: 302, headers: { location: other.url('/internal') } });
      const outcome = await post(receiver.url(), LOOPBACK);
      expect(codeOf(outcome)).toBe('HTTP 302');
      expect(receiver.requests).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 100));
      expect(other.requests).toHaveLength(0);
    } finally {
      await other.close();
    }
  });
});
