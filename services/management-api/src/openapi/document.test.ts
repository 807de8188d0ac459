import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { writeDocument } from './write-document';

const SERVICE = path.resolve(__dirname, '..', '..');
const REDOCLY = path.resolve(SERVICE, '..', '..', 'node_modules', '.bin', 'redocly');

describe('the OpenAPI document', () => {
  it('lints clean with Redocly’s recommended rules: no error, no warning', () => {
    writeDocument(path.join(SERVICE, 'dist'));
    const run = spawnSync(REDOCLY, ['lint', 'dist/openapi.json', '--format=json'], {
      cwd: SERVICE,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 60_000,
    });
    expect(run.error).toBeUndefined();
    const report = JSON.parse(run.stdout) as {
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; message: string; location: unknown }>;
    };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message} ${JSON.stringify(p.location)}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(run.status).toBe(0);
  });
});
