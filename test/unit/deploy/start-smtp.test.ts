import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './service-specs';

// Which mail relay `npm start` gives the outputs deliverer (docs/targets-email.md "Local mail
// catcher"): the operator's SMTP_* when any names one, the local mail catcher otherwise.

/** What scripts/smtp-env.sh adds to the outputs deliverer's environment, run with only `env`. */
function added(env: Record<string, string>): Record<string, string> {
  const out = execFileSync('bash', [path.join(ROOT, 'scripts/smtp-env.sh'), ROOT], {
    env: { PATH: process.env.PATH ?? '', ...env },
  }).toString();
  return Object.fromEntries(
    out
      .split('\0')
      .filter(Boolean)
      .map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]),
  );
}

describe('npm start: the outputs deliverer’s mail relay', () => {
  it('is the local mail catcher when the operator set no SMTP_* setting', () => {
    expect(added({})).toEqual({
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: '2525',
      SMTP_USERNAME: 'relay',
      SMTP_PASSWORD: 'relay-local',
      SMTP_FROM: 'relay@relay.local',
      SMTP_CA_FILE: path.join(ROOT, '.infra/mail/catcher-ca.pem'),
    });
    // a tuning setting names no relay
    expect(added({ SMTP_SOCKET_TIMEOUT_MS: '9000' })).toHaveProperty('SMTP_HOST', '127.0.0.1');
  });

  it.each(['SMTP_HOST', 'SMTP_PORT', 'SMTP_SECURITY', 'SMTP_USERNAME', 'SMTP_PASSWORD', 'SMTP_FROM', 'SMTP_CA_FILE'])(
    'is the operator’s when %s is set: nothing of the catcher’s is added over theirs',
    (name) => {
      expect(added({ [name]: 'x' })).toEqual({});
    },
  );

  it('start.sh starts the outputs deliverer with what the script chose, and no SMTP_* of its own', () => {
    const start = readFileSync(path.join(ROOT, 'scripts/start.sh'), 'utf8');
    const line = start.split('\n').find((l) => l.startsWith('run outputs-deliverer '))!;
    expect(line).toContain('"${smtp_env[@]}"');
    expect(line).not.toMatch(/SMTP_\w+=/);
    expect(start).toContain('mapfile -d \'\' smtp_env < <(bash scripts/smtp-env.sh "$ROOT")');
  });
});
