import { CONTRACT_LIMITS, compileContracts, contractSummary, validateContractSchemas } from './contracts';
import type { PayloadContracts } from './contracts';

const order = {
  type: 'object',
  required: ['id', 'amount'],
  properties: { id: { type: 'string', pattern: '^ord_' }, amount: { type: 'integer', minimum: 0 } },
};

const entry = (event_type: string, schema: unknown) => ({ event_type, schema: JSON.stringify(schema) });

const contracts = (over: Partial<PayloadContracts> = {}): PayloadContracts => ({
  event_type: { from: 'path', path: 'type' },
  mode: 'refuse',
  schemas: [entry('order.created', order)],
  ...over,
});

describe('validateContractSchemas (docs/contracts.md "Setting")', () => {
  it('accepts 2020-12 schemas as JSON text, and a mode', () => {
    const schemas = [entry('*', order)];
    expect(validateContractSchemas({ mode: 'mark', schemas })).toEqual({ ok: true, value: { mode: 'mark', schemas } });
  });

  const many = `must be a list of 1 to ${CONTRACT_LIMITS.maxSchemas} {event_type, schema} entries`;
  it.each([
    ['an unknown mode', { mode: 'drop', schemas: [entry('*', {})] }, 'contracts.mode', 'must be one of refuse, mark'],
    ['an object of schemas', { mode: 'refuse', schemas: { '*': {} } }, 'contracts.schemas', many],
    ['no schema', { mode: 'refuse', schemas: [] }, 'contracts.schemas', many],
    [
      'too many schemas',
      { mode: 'refuse', schemas: Array.from({ length: CONTRACT_LIMITS.maxSchemas + 1 }, (_, i) => entry(`t${i}`, {})) },
      'contracts.schemas',
      many,
    ],
    [
      'one event type twice',
      { mode: 'refuse', schemas: [entry('a', {}), entry('a', {})] },
      'contracts.schemas[1].event_type',
      '"a" has a schema already',
    ],
    [
      'an empty event type',
      { mode: 'refuse', schemas: [entry('', {})] },
      'contracts.schemas[0].event_type',
      'must be 1 to 200 characters',
    ],
    [
      'a schema object instead of text',
      { mode: 'refuse', schemas: [{ event_type: 'a', schema: {} }] },
      'contracts.schemas[0].schema',
      'must be the JSON text of a JSON Schema',
    ],
    [
      'text that is not JSON',
      { mode: 'refuse', schemas: [{ event_type: 'a', schema: '{"type":' }] },
      'contracts.schemas[0].schema',
      expect.stringContaining('is not JSON'),
    ],
    [
      'a number',
      { mode: 'refuse', schemas: [entry('a', 3)] },
      'contracts.schemas[0].schema',
      'must be a JSON Schema (an object or a boolean)',
    ],
    [
      'an unknown type',
      { mode: 'refuse', schemas: [entry('a', { type: 'strin' })] },
      'contracts.schemas[0].schema',
      expect.stringContaining('is not a valid JSON Schema'),
    ],
    [
      'a remote $ref (nothing is fetched)',
      { mode: 'refuse', schemas: [entry('a', { $ref: 'https://example.com/s.json' })] },
      'contracts.schemas[0].schema',
      expect.stringContaining('is not a valid JSON Schema'),
    ],
    [
      'a backreference',
      { mode: 'refuse', schemas: [entry('a', { properties: { v: { pattern: '(a)\\1' } } })] },
      'contracts.schemas[0].schema',
      expect.stringContaining('backreferences are not supported'),
    ],
    [
      'a lookahead in patternProperties',
      { mode: 'refuse', schemas: [entry('a', { patternProperties: { '(?=x)': {} } })] },
      'contracts.schemas[0].schema',
      expect.stringContaining('lookahead and lookbehind are not supported'),
    ],
    [
      'a schema too large',
      { mode: 'refuse', schemas: [entry('a', { description: 'x'.repeat(CONTRACT_LIMITS.maxSchemaBytes) })] },
      'contracts.schemas[0].schema',
      `must be at most ${CONTRACT_LIMITS.maxSchemaBytes} bytes`,
    ],
    [
      'schemas too large together',
      {
        mode: 'refuse',
        schemas: Array.from({ length: 5 }, (_, i) =>
          entry(`t${i}`, { description: 'x'.repeat(CONTRACT_LIMITS.maxSchemaBytes - 100) }),
        ),
      },
      'contracts.schemas',
      `must be at most ${CONTRACT_LIMITS.maxTotalBytes} bytes together`,
    ],
  ])('refuses %s at the field it names', (_what, input, field, message) => {
    const result = validateContractSchemas(input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors).toContainEqual({ field, message });
  });
});

describe('compileContracts (docs/contracts.md "Checks")', () => {
  it('checks a payload with its event type’s schema, naming each failing field', () => {
    const check = compileContracts(contracts());
    expect(check({}, { type: 'order.created', id: 'x_1', amount: -1 })).toEqual({
      event_type: 'order.created',
      schema: 'order.created',
      errors: [
        { path: '/id', message: 'does not match its pattern' },
        { path: '/amount', message: 'must be >= 0' },
      ],
      truncated: false,
    });
    expect(check({}, { type: 'order.created', id: 'ord_1' }).errors).toEqual([
      { path: '/amount', message: 'is required' },
    ]);
    expect(check({}, { type: 'order.created', id: 'ord_1', amount: 3 }).errors).toEqual([]);
  });

  it('uses `*` for an event type no schema names, and checks nothing without one', () => {
    const withDefault = compileContracts(
      contracts({ schemas: [entry('order.created', order), entry('*', { type: 'object', required: ['type'] })] }),
    );
    expect(withDefault({}, { other: 1 })).toMatchObject({
      event_type: null,
      schema: '*',
      errors: [{ path: '/type', message: 'is required' }],
    });
    expect(compileContracts(contracts())({}, { type: 'refund' })).toEqual({
      event_type: 'refund',
      schema: null,
      errors: [],
      truncated: false,
    });
  });

  it('reads the event type from a header, as an ordering key is read', () => {
    const check = compileContracts(contracts({ event_type: { from: 'header', header: 'X-GitHub-Event' } }));
    expect(check({ 'x-github-event': 'order.created' }, { id: 'ord_1' })).toMatchObject({
      schema: 'order.created',
      errors: [{ path: '/amount', message: 'is required' }],
    });
  });

  it(`lists at most ${CONTRACT_LIMITS.maxErrors} errors, each message bounded, and says more were found`, () => {
    const props = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, { type: 'string' }]));
    const check = compileContracts(contracts({ schemas: [entry('*', { properties: props })] }));
    const data = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, i]));
    const result = check({}, data);
    expect(result.errors).toHaveLength(CONTRACT_LIMITS.maxErrors);
    expect(result.truncated).toBe(true);
    const long = compileContracts(contracts({ schemas: [entry('*', { required: ['k'.repeat(1000)] })] }))({}, {});
    expect(long.errors[0]!.path.length).toBe(CONTRACT_LIMITS.maxMessageLength);
  });

  it('never echoes the value or the pattern', () => {
    const check = compileContracts(
      contracts({
        schemas: [entry('*', { properties: { s: { pattern: '^secret-[0-9]+$' }, c: { const: 'token-xyz' } } })],
      }),
    );
    const summary = contractSummary(check({}, { s: 'hunter2', c: 'nope' }));
    expect(summary).toBe('schema *: /s does not match its pattern; /c must be equal to constant');
  });

  it('runs `pattern` and `patternProperties` on RE2: ^(a+)+$ against 30,000 a followed by ! completes', () => {
    const check = compileContracts(
      contracts({
        schemas: [
          entry('*', {
            properties: { v: { pattern: '^(a+)+$' } },
            patternProperties: { '^(b+)+$': { type: 'integer' } },
          }),
        ],
      }),
    );
    const hostile = `${'a'.repeat(30_000)}!`;
    expect(check({}, { v: hostile }).errors).toEqual([{ path: '/v', message: 'does not match its pattern' }]);
    expect(check({}, { [`${'b'.repeat(30_000)}!`]: 'x' }).errors).toEqual([]);
  });

  it('says what its patterns may cost on a payload without running them: each occurrence × every text, more with each $ref', () => {
    const plain = compileContracts(contracts({ schemas: [entry('*', { required: ['a'] })] }));
    expect(plain.cost({}, { a: 'x'.repeat(1000) })).toBe(0);
    const one = compileContracts(contracts({ schemas: [entry('*', { properties: { a: { pattern: '^a+$' } } })] }));
    const twice = compileContracts(
      contracts({
        schemas: [entry('*', { $defs: { p: { pattern: '^a+$' } }, properties: { a: { $ref: '#/$defs/p' } } })],
      }),
    );
    const short = { a: 'aaaa' };
    const long = { a: 'a'.repeat(4000), other: ['b'.repeat(4000)] };
    expect(one.cost({}, long)).toBeGreaterThan(one.cost({}, short) + 8000);
    expect(twice.cost({}, long)).toBe(one.cost({}, long) * 2);
    // only the schema that applies counts
    const typed = compileContracts(contracts({ schemas: [entry('order.created', { pattern: '^a+$' })] }));
    expect(typed.cost({}, { type: 'refund', a: 'a'.repeat(4000) })).toBe(0);
    expect(typed.cost({}, { type: 'order.created', a: 'a'.repeat(4000) })).toBeGreaterThan(0);
  });

  it('uses 2020-12 keywords (prefixItems, unevaluatedProperties)', () => {
    const check = compileContracts(
      contracts({ schemas: [entry('*', { prefixItems: [{ type: 'string' }], items: false, type: 'array' })] }),
    );
    expect(check({}, ['a']).errors).toEqual([]);
    expect(check({}, ['a', 1]).errors).toEqual([{ path: '/', message: 'must NOT have more than 1 items' }]);
  });
});
