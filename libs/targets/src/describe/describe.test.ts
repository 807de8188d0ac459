import Ajv2020 from 'ajv/dist/2020';
import type { KindDescription } from './field';
import { REDACTED } from './field';
import { configInputSchema, configViewSchema } from './schema';
import { checkTargetName, validateRetrySchedule, validateRouting, withTargetFields } from './target-fields';
import { checkDescribed, validateDescribed } from './validate';
import { viewDescribed } from './view';
import { wireDescription } from './wire';

/** A kind that exists only here: a mail-like kind, to show the model serves more than URLs. */
const mailer: KindDescription = {
  label: 'Test mailer',
  fields: {
    name: {
      type: 'string',
      label: 'Target name',
      required: true,
      sameAs: 'name',
      trim: true,
      minLength: 1,
      maxLength: 100,
    },
    to: {
      type: 'list',
      label: 'To',
      required: true,
      maxItems: 2,
      items: { type: 'string', label: 'Address', required: true, format: 'email' },
    },
    password: { type: 'string', label: 'Password', required: true, credential: true },
    mode: {
      type: 'enum',
      label: 'Mode',
      default: 'text',
      values: [
        { value: 'text', label: 'Text' },
        { value: 'html', label: 'HTML' },
      ],
    },
    extra: {
      type: 'list',
      label: 'Headers',
      default: [],
      items: {
        type: 'object',
        label: 'Header',
        required: true,
        fields: {
          name: { type: 'string', label: 'Name', required: true },
          value: { type: 'string', label: 'Value', required: true, credential: { when: 'secret' } },
          secret: { type: 'boolean', label: 'Secret' },
        },
      },
    },
    auth: {
      type: 'variant',
      label: 'Auth',
      tag: 'type',
      default: { type: 'none' },
      variants: [
        { value: 'none', label: 'None', fields: {} },
        {
          value: 'token',
          label: 'Token',
          fields: { token: { type: 'string', label: 'Token', required: true, credential: true } },
        },
      ],
    },
  },
};
const box = { encrypt: (s: string) => `sealed(${s})`, decrypt: (s: string) => s.slice(7, -1) };
// formats are the validator's job (and `email` is not one ajv knows without ajv-formats)
const ajv = new Ajv2020({ strict: false, validateFormats: false });

describe('a kind described once, as data', () => {
  it('validates every field at its path, refuses unknown settings and applies defaults', () => {
    const r = checkDescribed(mailer, {
      to: ['a@example.com', 'nope', 'c@example.com'],
      password: '',
      mode: 'rtf',
      oops: 1,
      auth: { type: 'token' },
    });
    expect(r.ok ? [] : r.errors).toEqual([
      { field: 'config.oops', message: 'unknown setting' },
      { field: 'config.name', message: 'name is required' },
      { field: 'config.to', message: 'at most 2 items (got 3)' },
      { field: 'config.to[1]', message: 'to must be an email address' },
      { field: 'config.mode', message: 'must be "text" or "html"' },
      { field: 'config.auth.token', message: 'token is required' },
    ]);
    expect(checkDescribed(mailer, { name: ' ops ', to: ['a@example.com'], password: 'pw' })).toEqual({
      ok: true,
      value: { name: 'ops', to: ['a@example.com'], password: 'pw', mode: 'text', extra: [], auth: { type: 'none' } },
    });
  });

  it('seals every credential, a conditional one only when its switch is on, and the view never shows one', () => {
    const r = validateDescribed<Record<string, unknown>>(
      mailer,
      {
        name: 'x',
        to: ['a@example.com'],
        password: 'pw',
        extra: [
          { name: 'A', value: 'open' },
          { name: 'B', value: 'hidden', secret: true },
        ],
        auth: { type: 'token', token: 'tk' },
      },
      box,
    );
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.value).toMatchObject({
      password: 'sealed(pw)',
      extra: [{ value: 'open' }, { value: 'sealed(hidden)' }],
      auth: { token: 'sealed(tk)' },
    });
    const view = viewDescribed(mailer, r.value, box);
    expect(view).toMatchObject({
      password: REDACTED,
      extra: [{ value: 'open' }, { value: REDACTED }],
      auth: { type: 'token', token: REDACTED },
    });
    expect(JSON.stringify(view)).not.toMatch(/pw|hidden|tk\b/);
    expect(ajv.validate(configViewSchema(mailer), view)).toBe(true);
  });

  it('derives the input schema: what the validator accepts, the schema accepts', () => {
    const input = { to: ['a@example.com'], password: 'pw', auth: { type: 'token', token: 't' } };
    expect(ajv.validate(configInputSchema(mailer), input)).toBe(true);
    expect(ajv.validate(configInputSchema(mailer), { ...input, oops: 1 })).toBe(false);
    // `name` is the target's own: not required in the config, filled from the target
    expect(withTargetFields(mailer, input, { name: 'ops' })).toEqual({
      config: { ...input, name: 'ops' },
      filled: { name: 'name' },
    });
    expect(withTargetFields(mailer, { ...input, name: 'kept' }, { name: 'ops' })).toEqual({
      config: { ...input, name: 'kept' },
      filled: {},
    });
  });

  it('serves the description without its hooks', () => {
    const wire = wireDescription({
      label: 'K',
      fields: { url: { type: 'string', label: 'URL', required: true, credential: true, check: () => undefined } },
    });
    expect(wire).toEqual({
      label: 'K',
      fields: [{ name: 'url', type: 'string', label: 'URL', required: true, credential: true }],
    });
  });
});

describe("a target's own settings, checked by their description (TARGET_FIELDS)", () => {
  it('name: trimmed, 1–200 characters, the API’s message kept', () => {
    expect(checkTargetName('  ops  ')).toEqual({ ok: true, value: 'ops' });
    for (const bad of ['', '   ', 'x'.repeat(201), 7, null]) {
      expect(checkTargetName(bad)).toEqual({
        ok: false,
        errors: [{ field: 'name', message: 'Enter a name of at most 200 characters.' }],
      });
    }
  });

  it('retry_schedule_ms: null is the kind’s default, [] no retries, each bad delay at its index', () => {
    expect(validateRetrySchedule(null)).toEqual({ ok: true, value: null });
    expect(validateRetrySchedule(undefined)).toEqual({ ok: true, value: null });
    expect(validateRetrySchedule([])).toEqual({ ok: true, value: [] });
    expect(validateRetrySchedule([1000, 60_000])).toEqual({ ok: true, value: [1000, 60_000] });
    expect(validateRetrySchedule('soon')).toEqual({
      ok: false,
      errors: [
        { field: 'retry_schedule_ms', message: 'must be an array of delays in milliseconds, or null for the default' },
      ],
    });
    expect(validateRetrySchedule([-1, 5, 1.5, 86_400_001])).toEqual({
      ok: false,
      errors: ['[0]', '[2]', '[3]'].map((i) => ({
        field: `retry_schedule_ms${i}`,
        message: 'must be an integer from 0 to 86400000',
      })),
    });
    expect(validateRetrySchedule(Array(21).fill(1))).toEqual({
      ok: false,
      errors: [{ field: 'retry_schedule_ms', message: 'at most 20 retries' }],
    });
  });
});

describe('a target’s routing rules, checked by their description (TARGET_FIELDS.routing)', () => {
  it('null or absent routes every event; match defaults to all', () => {
    expect(validateRouting(null)).toEqual({ ok: true, value: null });
    expect(validateRouting(undefined)).toEqual({ ok: true, value: null });
    expect(validateRouting({ rules: [{ kind: 'equals', path: 'type', value: 'order.paid' }] })).toEqual({
      ok: true,
      value: { match: 'all', rules: [{ kind: 'equals', path: 'type', value: 'order.paid' }] },
    });
  });

  it('accepts every kind with its own fields', () => {
    const rules = [
      { kind: 'equals', path: 'a', value: 'x', case_insensitive: true },
      { kind: 'one_of', path: 'a', values: ['x', 'y'] },
      { kind: 'contains', path: 'a', value: 'x' },
      { kind: 'not_contains', path: 'a', value: 'x' },
      { kind: 'regex', path: 'a.b', pattern: '^x' },
      { kind: 'not_regex', path: 'a', pattern: 'x' },
      { kind: 'exists', path: 'a' },
      { kind: 'not_exists', path: 'a' },
      { kind: 'gt', path: 'n', value: 1.5 },
      { kind: 'gte', path: 'n', value: -2 },
      { kind: 'lt', path: 'n', value: 0 },
      { kind: 'lte', path: 'n', value: 1e6 },
    ];
    expect(validateRouting({ match: 'any', rules })).toEqual({ ok: true, value: { match: 'any', rules } });
  });

  it.each([
    [
      'a pattern RE2 cannot run',
      { rules: [{ kind: 'regex', path: 'a', pattern: '(?=x)' }] },
      'routing.rules[0].pattern',
      'lookahead',
    ],
    [
      'a path with an empty part',
      { rules: [{ kind: 'exists', path: 'a..b' }] },
      'routing.rules[0].path',
      'without empty parts',
    ],
    ['a __proto__ path', { rules: [{ kind: 'exists', path: '__proto__' }] }, 'routing.rules[0].path', '__proto__'],
    [
      'a text bound for a comparison',
      { rules: [{ kind: 'gt', path: 'a', value: '5' }] },
      'routing.rules[0].value',
      'must be a number',
    ],
    [
      'a value its kind does not use',
      { rules: [{ kind: 'exists', path: 'a', value: 'x' }] },
      'routing.rules[0].value',
      'unknown setting',
    ],
    ['an unknown kind', { rules: [{ kind: 'startswith', path: 'a', value: 'x' }] }, 'routing.rules[0].kind', 'must be'],
    ['no rules', { rules: [] }, 'routing.rules', 'at least one rule'],
    [
      'an unknown match',
      { match: 'most', rules: [{ kind: 'exists', path: 'a' }] },
      'routing.match',
      'must be "all" or "any"',
    ],
    ['a missing path', { rules: [{ kind: 'exists' }] }, 'routing.rules[0].path', 'is required'],
  ])('refuses %s, naming the field', (_case, input, field, message) => {
    const r = validateRouting(input);
    expect(r.ok ? [] : r.errors).toEqual(
      expect.arrayContaining([{ field, message: expect.stringContaining(message) }]),
    );
  });
});
