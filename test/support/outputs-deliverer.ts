import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FakeGoogle } from './fake-google';
import { startService } from './services';
import type { RunningService } from './services';
import type { TestSmtpServer } from './smtp-server';

/**
 * The outputs deliverer as operators run it — the deliverer program on the outputs channel —
 * sending email to the test SMTP server (STARTTLS, AUTH as `relay` with `smtpPassword`) and
 * spreadsheet rows to the Google fake, each trusted through a CA file of its own.
 */
export async function startOutputsDeliverer(
  env: Record<string, string>,
  to: { smtp: TestSmtpServer; smtpPassword: string; google: FakeGoogle },
): Promise<RunningService> {
  const dir = mkdtempSync(path.join(tmpdir(), 'relay-outputs-'));
  writeFileSync(path.join(dir, 'smtp-ca.pem'), to.smtp.ca);
  writeFileSync(path.join(dir, 'google-ca.pem'), to.google.ca);
  return startService('outputs-deliverer', {
    ...env,
    SSRF_ALLOW_CIDRS: '127.0.0.1/32',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(to.smtp.port),
    SMTP_USERNAME: 'relay',
    SMTP_PASSWORD: to.smtpPassword,
    SMTP_FROM: 'relay@relay.example',
    SMTP_CA_FILE: path.join(dir, 'smtp-ca.pem'),
    GOOGLE_TOKEN_URL: `${to.google.baseUrl}/token`,
    GOOGLE_SHEETS_URL: `${to.google.baseUrl}/v4/spreadsheets/`,
    GOOGLE_CA_FILE: path.join(dir, 'google-ca.pem'),
  });
}
