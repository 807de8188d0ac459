import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { deliverEmail } from '../../../libs/targets/src/kinds/email';
import type { EmailConfig } from '../../../libs/targets/src/kinds/email';
import { startTestSmtpServer } from '../../support/smtp-server';
import type { TestSmtpServer } from '../../support/smtp-server';
import { delivery, FROM, SMTP_PASS, SMTP_USER, transportTo } from './fixtures';

/*
 * SMTP 4xx and connection failures retry; 5xx is permanent; an unknown
 * recipient (5.1.1) also flags the target. Every answer here is a real relay's, on the wire.
 */

const config: EmailConfig = { to: ['ops@example.com'], cc: [], bcc: [], subject: 'hi' };
const d = () => delivery('{"a":1}', 'application/json');
let server: TestSmtpServer;

beforeAll(async () => {
  server = await startTestSmtpServer({ security: 'starttls', auth: { user: SMTP_USER, pass: SMTP_PASS } });
});
afterAll(() => server.close());

async function attempt(
  cfg: EmailConfig = config,
  over: Parameters<typeof transportTo>[1] = {},
  srv: TestSmtpServer = server,
) {
  const transport = transportTo(srv, over);
  try {
    return await deliverEmail(cfg, d(), { transport, from: FROM });
  } finally {
    transport.close();
  }
}

describe('SMTP answers → attempt results', () => {
  it('451 4.7.1 on DATA (greylisting) → retry with the reply', async () => {
    server.failNextData({ code: 451, message: '4.7.1 Greylisted, try again later' });
    expect(await attempt()).toEqual({
      result: 'retry',
      status: 451,
      error: 'mail relay answered 451 4.7.1 Greylisted, try again later',
    });
  });

  it('554 5.6.0 on DATA → permanent, target not flagged', async () => {
    server.failNextData({ code: 554, message: '5.6.0 Message content rejected' });
    expect(await attempt()).toEqual({
      result: 'permanent',
      status: 554,
      error: 'mail relay answered 554 5.6.0 Message content rejected',
      flagTarget: false,
    });
  });

  it('550 5.1.1 unknown recipient → permanent and the target is flagged', async () => {
    server.rejectRecipient('nobody@example.com', {
      code: 550,
      message: '5.1.1 <nobody@example.com>: Recipient address rejected: User unknown',
    });
    const result = await attempt({ ...config, to: ['nobody@example.com'] });
    expect(result).toMatchObject({ result: 'permanent', status: 550, flagTarget: true });
  });

  it('450 on RCPT for the only recipient → retry', async () => {
    server.rejectRecipient('full@example.com', { code: 452, message: '4.2.2 Mailbox full' });
    expect(await attempt({ ...config, to: ['full@example.com'] })).toMatchObject({ result: 'retry', status: 452 });
  });

  it('one of two recipients unknown → sent to the other, permanent (no resend to them) and flagged', async () => {
    server.rejectRecipient('typo@example.com', { code: 550, message: '5.1.1 <typo@example.com>: User unknown' });
    const before = server.received.length;
    const result = await attempt({ ...config, to: ['ops@example.com', 'typo@example.com'] });
    expect(result).toMatchObject({ result: 'permanent', status: 250, flagTarget: true });
    expect(server.received.length).toBe(before + 1);
    expect(server.received.at(-1)!.envelope.to).toEqual(['ops@example.com']);
  });

  it('a relay slower than the socket timeout → retry within the timeout', async () => {
    const before = server.received.length;
    server.setDataDelay(3_000);
    try {
      const started = Date.now();
      const result = await attempt(config, { socketTimeoutMs: 500 });
      expect(result).toMatchObject({ result: 'retry', status: null });
      expect(Date.now() - started).toBeLessThan(2_500);
    } finally {
      server.setDataDelay(0);
    }
    // the relay still takes the message once its delay is over: counted here, not in a later test
    await server.waitFor(before + 1, 10_000);
  });

  it('connection refused → retry', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect(await attempt(config, { port })).toEqual({
      result: 'retry',
      status: null,
      error: 'mail relay unreachable (ESOCKET)',
    });
  });

  it('a relay that never greets → retry after the greeting timeout', async () => {
    const mute = createServer(() => undefined);
    await new Promise<void>((r) => mute.listen(0, '127.0.0.1', () => r()));
    try {
      const result = await attempt(config, { port: (mute.address() as AddressInfo).port, greetingTimeoutMs: 300 });
      expect(result).toMatchObject({ result: 'retry', status: null });
    } finally {
      await new Promise<void>((r) => mute.close(() => r()));
    }
  }, 10_000);

  it('wrong relay credentials (535) → retry: an operator setting, not the target; the password is in no error', async () => {
    const result = await attempt(config, { password: 'wrong-Pa55word' });
    expect(result).toMatchObject({ result: 'retry', status: 535 });
    expect(JSON.stringify(result)).not.toMatch(/Pa55word/);
  });

  it('STARTTLS required but the relay does not offer it → retry, nothing sent in clear', async () => {
    const plain = await startTestSmtpServer({ security: 'plain' });
    try {
      const result = await attempt(config, { username: undefined, password: undefined }, plain);
      expect(result).toMatchObject({ result: 'retry' });
      expect(plain.received).toHaveLength(0);
    } finally {
      await plain.close();
    }
  });

  it('implicit TLS (port 465 style) delivers', async () => {
    const tls = await startTestSmtpServer({ security: 'tls', auth: { user: SMTP_USER, pass: SMTP_PASS } });
    try {
      expect(await attempt(config, { security: 'tls' }, tls)).toEqual({ result: 'success', status: 250 });
      expect(tls.received[0]!.secure).toBe(true);
    } finally {
      await tls.close();
    }
  });

  it('a relay certificate no configured CA trusts → retry (operator setting), nothing sent', async () => {
    const before = server.received.length;
    const result = await attempt(config, { ca: undefined });
    expect(result).toMatchObject({ result: 'retry' });
    expect(server.received.length).toBe(before);
  });
});
