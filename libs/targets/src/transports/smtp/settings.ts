import { readFileSync } from 'node:fs';
import type { SmtpTransport } from './transport';
import { createSmtpTransport } from './transport';
import type { SmtpSecurity } from './config';

/** The operator's mail relay settings as @relay/config's `smtpVars` reads them (SMTP_*). */
export interface SmtpSettings {
  smtpHost: string;
  smtpPort: number;
  smtpSecurity: string;
  smtpUsername: string;
  smtpPassword: string;
  smtpFrom: string;
  smtpCaFile: string;
  smtpConnectTimeoutMs: number;
  smtpSocketTimeoutMs: number;
  smtpMaxConnections: number;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The mail relay of a service's SMTP_* settings: `problems` lists every unusable setting (for a
 * ConfigError at start-up), `relay` is absent when SMTP_HOST is empty or a setting is unusable.
 * One reading for every service that sends mail, so they all refuse the same settings.
 */
export function smtpRelayOf(s: SmtpSettings): {
  problems: string[];
  relay?: { transport: SmtpTransport; from: string };
} {
  const problems: string[] = [];
  if (s.smtpHost !== '' && !/^[^@\s]+@[^@\s]+$/.test(s.smtpFrom))
    problems.push('SMTP_FROM: an address is required when SMTP_HOST is set');
  if ((s.smtpUsername === '') !== (s.smtpPassword === '')) problems.push('SMTP_USERNAME and SMTP_PASSWORD go together');
  // mail (and AUTH) in clear is for a catcher on this machine only, never across a network
  if (s.smtpHost !== '' && s.smtpSecurity === 'none' && !LOOPBACK.has(s.smtpHost))
    problems.push('SMTP_SECURITY=none is accepted only for a relay on loopback (127.0.0.1, ::1, localhost)');
  let ca: string | undefined;
  if (s.smtpCaFile !== '') {
    try {
      ca = readFileSync(s.smtpCaFile, 'utf8');
    } catch {
      problems.push(`SMTP_CA_FILE: cannot read ${s.smtpCaFile}`);
    }
  }
  if (problems.length > 0 || s.smtpHost === '') return { problems };
  const transport = createSmtpTransport({
    host: s.smtpHost,
    port: s.smtpPort,
    security: s.smtpSecurity as SmtpSecurity,
    ...(s.smtpUsername !== '' ? { username: s.smtpUsername, password: s.smtpPassword } : {}),
    from: s.smtpFrom,
    ...(ca ? { ca } : {}),
    connectionTimeoutMs: s.smtpConnectTimeoutMs,
    greetingTimeoutMs: s.smtpConnectTimeoutMs,
    socketTimeoutMs: s.smtpSocketTimeoutMs,
    maxConnections: s.smtpMaxConnections,
  });
  return { problems, relay: { transport, from: s.smtpFrom } };
}
