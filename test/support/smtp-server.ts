import { SMTPServer } from 'smtp-server';
import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import { simpleParser } from 'mailparser';
import type { ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { selfSigned } from './rsa-keys';

/*
 * A real SMTP server on loopback for the email tests ("Real parts"): TLS (implicit
 * or STARTTLS) with a fresh self-signed certificate whose PEM the client is given as its CA,
 * AUTH PLAIN/LOGIN against one user, and scripted answers — a reply per recipient, a reply to
 * DATA, a delay before answering DATA — so 4xx, 5xx and timeouts are the relay's own, on the
 * wire. Every message it takes is parsed with mailparser.
 */

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  parsed: ParsedMail;
  /** whether the session was encrypted when the message arrived */
  secure: boolean;
  user: string | undefined;
}

/** An SMTP reply the server gives instead of accepting: `{ code: 550, message: '5.1.1 <x>: no such user' }`. */
export interface SmtpReply {
  code: number;
  message: string;
}

export interface TestSmtpServerOptions {
  /** `tls`: implicit TLS; `starttls`: STARTTLS offered; `plain`: no TLS offered */
  security: 'tls' | 'starttls' | 'plain';
  auth?: { user: string; pass: string };
}

export interface TestSmtpServer {
  readonly port: number;
  /** the server certificate, for the client's `ca` */
  readonly ca: string;
  readonly received: ReceivedMail[];
  /** the reply RCPT TO gets for this address from now on */
  rejectRecipient(address: string, reply: SmtpReply): void;
  /** the reply the next DATA gets, once (then DATA is accepted again) */
  failNextData(reply: SmtpReply): void;
  /** delay before DATA is answered (the message is still taken after it); 0 = none */
  setDataDelay(ms: number): void;
  /** resolves once `count` messages have been received, or rejects after `timeoutMs` */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

function replyError(reply: SmtpReply): Error & { responseCode: number } {
  return Object.assign(new Error(reply.message), { responseCode: reply.code });
}

export async function startTestSmtpServer(opts: TestSmtpServerOptions): Promise<TestSmtpServer> {
  const pems = selfSigned([{ name: 'commonName', value: 'localhost' }], {
    algorithm: 'sha256',
    days: 1,
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const received: ReceivedMail[] = [];
  const rejected = new Map<string, SmtpReply>();
  const dataFailures: SmtpReply[] = [];
  let dataDelayMs = 0;
  const timers = new Set<NodeJS.Timeout>();

  const server = new SMTPServer({
    secure: opts.security === 'tls',
    key: pems.private,
    cert: pems.cert,
    hideSTARTTLS: opts.security !== 'starttls',
    authOptional: opts.auth === undefined,
    // AUTH over an unencrypted session is refused, as real relays do
    allowInsecureAuth: false,
    authMethods: ['PLAIN', 'LOGIN'],
    // `plain` refuses STARTTLS outright: hiding it alone still lets a client that asks upgrade
    disabledCommands: [
      ...(opts.auth === undefined ? ['AUTH'] : []),
      ...(opts.security === 'plain' ? ['STARTTLS'] : []),
    ],
    logger: false,
    size: 50 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass)
        return callback(null, { user: auth.username });
      return callback(Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      const reply = rejected.get(address.address);
      return reply ? callback(replyError(reply)) : callback();
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const answer = (): void => {
          const failure = dataFailures.shift();
          if (failure) return callback(replyError(failure));
          const raw = Buffer.concat(chunks);
          const envelope = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
          };
          simpleParser(raw)
            .then((parsed) => {
              received.push({
                envelope,
                raw,
                parsed,
                secure: session.secure,
                user: session.user as string | undefined,
              });
              callback(null, 'OK: queued');
            })
            .catch((err: Error) => callback(err));
        };
        if (dataDelayMs <= 0) return answer();
        const t = setTimeout(() => {
          timers.delete(t);
          answer();
        }, dataDelayMs);
        timers.add(t);
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.listen(0, '127.0.0.1', () => resolve());
    server.server.once('error', reject);
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    ca: pems.cert,
    received,
    rejectRecipient: (address, reply) => rejected.set(address, reply),
    failNextData: (reply) => dataFailures.push(reply),
    setDataDelay: (ms) => (dataDelayMs = ms),
    waitFor: async (count, timeoutMs = 5_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`smtp test server: ${received.length} of ${count} messages after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received;
    },
    close: () => {
      for (const t of timers) clearTimeout(t);
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
