import { describeConfig, envNames } from '@relay/config';
import { envExample } from '../../../scripts/docs/render';
import { loadServiceSpecs } from './service-specs';

function assignedNames(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
    .map((line) => line.slice(0, line.indexOf('=')));
}

/**
 * `.env.example` as `npm run docs` writes it from every service's config spec; that the committed
 * file is what it writes is checked with the docs (test/unit/docs/generated-docs.test.ts).
 */
describe('.env.example', () => {
  const services = loadServiceSpecs();
  const expected = envExample(services, describeConfig);

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
