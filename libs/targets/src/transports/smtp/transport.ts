import type * as Nodemailer from 'nodemailer';
import { onFirstUse } from '../on-first-use';
import type { SmtpRelayConfig } from './config';

const nodemailer = onFirstUse(() => require('nodemailer') as typeof Nodemailer);

/** One message as it goes on the wire: the envelope (who the relay delivers to) and the RFC 5322 bytes. */
export interface SmtpMessage {
  envelope: { from: string; to: readonly string[] };
  raw: Buffer;
}

/** One recipient the relay refused at RCPT TO while others were taken. */
export interface RejectedRecipient {
  address: string;
  responseCode: number | null;
  response: string;
}

/**
 * What one send came to, trimmed to what classification needs. Never thrown: a refused or
 * broken connection is an `error` with nodemailer's code (ECONNECTION, ETIMEDOUT, ESOCKET,
 * EAUTH, ETLS, EENVELOPE, EMESSAGE, …) and, when the relay answered, its reply.
 */
export type SmtpOutcome =
  | { ok: true; response: string; rejected: RejectedRecipient[]; durationMs: number }
  | { ok: false; error: SmtpFailure; durationMs: number };

export interface SmtpFailure {
  code: string;
  /** the relay's reply code (421, 550, …); null when it never answered */
  responseCode: number | null;
  /** the relay's reply text, e.g. `550 5.1.1 <x@y>: Recipient address rejected` */
  response: string;
  message: string;
}

export interface SmtpTransport {
  send(message: SmtpMessage): Promise<SmtpOutcome>;
  /** closes pooled connections; call on shutdown */
  close(): void;
}

/**
 * An SMTP client for the operator's relay, built on nodemailer: a pool of
 * at most `maxConnections` connections, certificates always verified, STARTTLS required unless
 * the operator picked implicit TLS or (by name) none, and each phase bounded by a timeout so a
 * slow relay ends the attempt instead of holding a worker. nodemailer's own logging stays off:
 * its debug output would carry AUTH exchanges.
 */
export function createSmtpTransport(config: SmtpRelayConfig): SmtpTransport {
  if ((config.username === undefined) !== (config.password === undefined))
    throw new Error('SMTP relay: username and password go together');
  const tls = { rejectUnauthorized: true, minVersion: 'TLSv1.2' as const, ...(config.ca ? { ca: config.ca } : {}) };
  const transporter = nodemailer().createTransport({
    pool: true,
    maxConnections: config.maxConnections,
    host: config.host,
    port: config.port,
    secure: config.security === 'tls',
    requireTLS: config.security === 'starttls',
    ignoreTLS: config.security === 'none',
    tls,
    auth: config.username !== undefined ? { user: config.username, pass: config.password ?? '' } : undefined,
    connectionTimeout: config.connectionTimeoutMs,
    greetingTimeout: config.greetingTimeoutMs,
    socketTimeout: config.socketTimeoutMs,
    dnsTimeout: config.connectionTimeoutMs,
    logger: false,
    debug: false,
  });
  return {
    send: async (message) => {
      const started = performance.now();
      try {
        const info = await transporter.sendMail({
          envelope: { from: message.envelope.from, to: [...message.envelope.to] },
          raw: message.raw,
        });
        return {
          ok: true,
          response: String(info.response ?? ''),
          rejected: rejectedOf(info),
          durationMs: performance.now() - started,
        };
      } catch (err) {
        return { ok: false, error: failureOf(err), durationMs: performance.now() - started };
      }
    },
    close: () => transporter.close(),
  };
}

interface NodemailerError {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
  rejectedErrors?: NodemailerError[];
  recipient?: string;
}

function rejectedOf(info: unknown): RejectedRecipient[] {
  const errors = (info as { rejectedErrors?: NodemailerError[] }).rejectedErrors ?? [];
  return errors.map((e) => ({
    address: e.recipient ?? '',
    responseCode: e.responseCode ?? null,
    response: e.response ?? '',
  }));
}

function failureOf(err: unknown): SmtpFailure {
  const e = (err ?? {}) as NodemailerError;
  // with every recipient refused, the reply worth classifying is a recipient's, not the summary's
  const first = e.rejectedErrors?.[0];
  return {
    code: e.code ?? 'ERROR',
    responseCode: first?.responseCode ?? e.responseCode ?? null,
    response: (first?.response ?? e.response ?? '').slice(0, 500),
    message: String(e.message ?? err).slice(0, 300),
  };
}
