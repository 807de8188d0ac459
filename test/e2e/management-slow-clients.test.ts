import { must } from '@relay/client';
import net from 'node:net';
import { startStack } from './stack';
import type { Stack } from './stack';

/*
 * The management API (its own process, built from dist/) drops slow clients
 * as the gateway does. 300 connections drip headers or a body; each is answered 408 and closed
 * within the configured timeouts (plus Node's one-second check), while another caller's
 * requests are all answered meanwhile; past MAX_CONNECTIONS a new connection is closed at once.
 * docs/security.md "Slow clients", docs/configuration.md.
 */
const HEADERS_TIMEOUT_MS = 2000;
const BODY_TIMEOUT_MS = 2000;
const MAX_CONNECTIONS = 350;
/** Node looks for late requests once a second (transport/server.ts); the rest is this busy machine's scheduling */
const CHECK_SLACK_MS = 1000 + 1500;
const DRIPPERS = 300;
const DRIP_EVERY_MS = 400;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack('mgmt-slow', {
    only: ['management-api'],
    overrides: {
      'management-api': {
        HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
        MAX_CONNECTIONS: String(MAX_CONNECTIONS),
      },
    },
  });
});
afterAll(() => stack?.stop());

interface Dripped {
  /** ms from connect to the server closing the connection */
  closedAfterMs: number;
  /** what the server wrote before closing */
  answer: string;
}

/** One connection that sends `head` then one more byte of `drip` every DRIP_EVERY_MS, never finishing; bounded by `giveUpMs`. */
function drip(port: number, head: string, drip: () => string, giveUpMs: number): Promise<Dripped> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let answer = '';
    let started = 0;
    let timer: NodeJS.Timeout | undefined;
    const done = (): void => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closedAfterMs: Date.now() - started, answer });
    };
    const giveUp = setTimeout(done, giveUpMs);
    socket.once('connect', () => {
      started = Date.now();
      socket.write(head);
      timer = setInterval(() => socket.writable && socket.write(drip()), DRIP_EVERY_MS);
    });
    socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    socket.once('close', done);
    socket.once('error', () => undefined);
  });
}

const port = (): number => stack.services['management-api']!.port;

describe('slow clients of the management API', () => {
  it('drops 300 connections dripping headers or a body within the timeouts, and answers another caller meanwhile', async () => {
    const giveUpMs = HEADERS_TIMEOUT_MS + BODY_TIMEOUT_MS + 10_000;
    const headerDrips = Array.from({ length: DRIPPERS / 2 }, () =>
      drip(port(), 'GET /v1/endpoints HTTP/1.1\r\nHost: relay\r\n', () => 'X-Drip: 1\r\n', giveUpMs),
    );
    const bodyHead = `POST /v1/endpoints HTTP/1.1\r\nHost: relay\r\nAuthorization: Bearer ${stack.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"name":"`;
    const bodyDrips = Array.from({ length: DRIPPERS / 2 }, () => drip(port(), bodyHead, () => 'a', giveUpMs));

    // another caller, while the drippers hold their connections: every request answered
    const answered: number[] = [];
    const until = Date.now() + HEADERS_TIMEOUT_MS;
    for (let i = 0; i < 50 && Date.now() < until; i++) {
      // raw: the status whatever it is, while slow clients hold connections
      const res = await stack.api('/v1/endpoints');
      answered.push(res.status);
      await new Promise((r) => setTimeout(r, 100));
    }
    const [headers, bodies] = await Promise.all([Promise.all(headerDrips), Promise.all(bodyDrips)]);

    expect(answered.length).toBeGreaterThan(3);
    expect(answered.every((s) => s === 200)).toBe(true);
    const late = (list: Dripped[], limitMs: number): Dripped[] =>
      list.filter((d) => d.closedAfterMs > limitMs + CHECK_SLACK_MS);
    expect(late(headers, HEADERS_TIMEOUT_MS)).toEqual([]);
    expect(late(bodies, HEADERS_TIMEOUT_MS + BODY_TIMEOUT_MS)).toEqual([]);
    // answered, not just cut: Node's 408 before the close
    expect([...headers, ...bodies].filter((d) => !d.answer.startsWith('HTTP/1.1 408'))).toEqual([]);
    // and the API still serves
    await must(stack.client.GET('/v1/endpoints'));
  }, 60_000);

  it('closes a connection past MAX_CONNECTIONS as soon as it opens; those it kept are dropped by the header timeout', async () => {
    const extra = 20;
    const idle = await Promise.all(
      Array.from({ length: MAX_CONNECTIONS + extra }, () => drip(port(), '', () => '', HEADERS_TIMEOUT_MS + 10_000)),
    );
    const refusedAtOnce = idle.filter((d) => d.closedAfterMs < 500 && d.answer === '');
    // at least the extra ones; a few more when the caller's pooled connections of the test above are still open
    expect(refusedAtOnce.length).toBeGreaterThanOrEqual(extra);
    expect(refusedAtOnce.length).toBeLessThanOrEqual(extra + 10);
    expect(idle.filter((d) => d.closedAfterMs > HEADERS_TIMEOUT_MS + CHECK_SLACK_MS)).toEqual([]);
    await must(stack.client.GET('/v1/endpoints'));
  }, 60_000);
});
