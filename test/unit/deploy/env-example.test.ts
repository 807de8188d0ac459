import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { envNames } from '@relay/config';
import { REGENERATE, renderEnvExample } from './env-example';
import { ROOT, loadServiceSpecs } from './service-specs';

const FILE = path.join(ROOT, '.env.example');

function assignedNames(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
    .map((line) => line.slice(0, line.indexOf('=')));
}

describe('.env.example', () => {
  const services = loadServiceSpecs();
  const expected = renderEnvExample(services);

  // The test writes the file only when asked; production code has no such branch.
  if (process.env.UPDATE_ENV_EXAMPLE === '1') writeFileSync(FILE, expected);

  it('is generated from the current config specs of every service', () => {
    const actual = existsSync(FILE) ? readFileSync(FILE, 'utf8') : '';
    if (actual !== expected) {
      const have = new Set(actual.split('\n'));
      const want = new Set(expected.split('\n'));
      const missing = [...want].filter((l) => !have.has(l)).slice(0, 10);
      const stale = [...have].filter((l) => !want.has(l)).slice(0, 10);
      throw new Error(
        `.env.example is out of date with services/*/src/config.ts. Regenerate it with\n  ${REGENERATE}\n` +
          `lines missing:\n  ${missing.join('\n  ')}\nlines no longer generated:\n  ${stale.join('\n  ')}`,
      );
    }
  });

  it('assigns every variable any service reads', () => {
    const assigned = new Set(assignedNames(expected));
    const read = services.flatMap(({ spec }) => envNames(spec));
    expect(read.filter((name) => !assigned.has(name))).toEqual([]);
    expect(read.length).toBeGreaterThan(0);
  });

  it('gives every variable a one-line meaning just above it', () => {
    const lines = expected.split('\n');
    const bare = lines.filter((line, i) => /^[A-Z][A-Z0-9_]*=/.test(line) && !(lines[i - 1] ?? '').startsWith('# '));
    expect(bare).toEqual([]);
  });

  it('prints no secret default', () => {
    const secrets = services.flatMap(({ spec }) => Object.values(spec).filter((v) => v.secret).map((v) => v.env));
    const lines = expected.split('\n');
    expect(lines.filter((line) => secrets.some((env) => line.startsWith(`${env}=`) && line !== `${env}=`))).toEqual([]);
  });
});
