import { randomBytes } from 'node:crypto';
import { createSecretBox } from '@relay/secrets';
import { createBlockChatKind, createEmbedChatKind, createRegistry, createWebhookKind } from '@relay/targets';
import { orderingApplies, validateNewTarget, validateTargetChanges } from './target-input';

const secrets = createSecretBox(`k1:${randomBytes(32).toString('base64')}`);
const registry = createRegistry([createEmbedChatKind({ secrets }), createBlockChatKind({ secrets })]);
const DISCORD = 'https://discord.com/api/webhooks/123/tok-en_1';
const fieldsOf = (r: { ok: boolean; errors?: { field: string }[] }): string[] =>
  r.ok ? [] : (r.errors ?? []).map((e) => e.field).sort();

describe('target input: the endpoints pattern (every problem at once, unknown fields refused)', () => {
  it("a create needs kind, name and the kind's config; enabled defaults to true, the schedule to the kind's", () => {
    expect(
      validateNewTarget({ kind: 'embed_chat', name: ' alerts ', config: { url: DISCORD, name: 'alerts' } }, registry),
    ).toEqual({
      ok: true,
      value: {
        kind: 'embed_chat',
        name: 'alerts',
        enabled: true,
        config: { url: expect.stringMatching(/^enc:v1:/), name: 'alerts' },
        retry_schedule_ms: null,
        limits: null,
        breaker: null,
        routing: null,
        ordering: null,
      },
    });
  });

  it('limits and breaker settings: checked by their description (TARGET_FIELDS), defaults filled, each problem at its path', () => {
    const body = {
      kind: 'embed_chat',
      name: 'a',
      config: { url: DISCORD },
      limits: { rate: 10 },
      breaker: { cool_down_s: 5 },
    };
    expect(validateNewTarget(body, registry)).toMatchObject({
      ok: true,
      value: {
        limits: { rate: 10, per: 'second', max_in_flight: null },
        breaker: { failure_rate_pct: 50, min_attempts: 20, window_s: 60, cool_down_s: 5, flag_after_open_s: 86_400 },
      },
    });
    expect(
      validateTargetChanges({ limits: { rate: 0, per: 'hour', burst: 1 }, breaker: { failure_rate_pct: 101 } }),
    ).toEqual({
      ok: false,
      errors: [
        { field: 'limits.burst', message: 'unknown setting' },
        { field: 'limits.rate', message: 'rate must be an integer from 1 to 10000' },
        { field: 'limits.per', message: 'must be "second" or "minute"' },
        { field: 'breaker.failure_rate_pct', message: 'failure_rate_pct must be an integer from 1 to 100' },
      ],
    });
    expect(validateTargetChanges({ limits: 'fast', breaker: null })).toEqual({
      ok: false,
      errors: [
        { field: 'limits', message: 'must be an object ({rate, per, max_in_flight}) or null for the kind’s default' },
      ],
    });
    expect(validateTargetChanges({ limits: null, breaker: null })).toEqual({
      ok: true,
      value: { limits: null, breaker: null },
    });
  });

  it("names every offending field at once: its own, the kind's config paths, unknown and read-only fields", () => {
    const r = validateNewTarget(
      {
        kind: 'embed_chat',
        name: '',
        enabled: 'yes',
        config: { url: 'http://example.com', name: '' },
        retry_schedule_ms: [-1],
        colour: 'red',
        flagged: null,
      },
      registry,
    );
    expect(fieldsOf(r)).toEqual([
      'colour',
      'config.name',
      'config.url',
      'enabled',
      'flagged',
      'name',
      'retry_schedule_ms[0]',
    ]);
  });

  it.each([
    [
      'missing kind and name',
      {},
      [
        { field: 'kind', message: 'is required' },
        { field: 'name', message: 'is required' },
      ],
    ],
    [
      'an unknown kind: its config cannot be checked',
      { kind: 'email', name: 'n', config: {} },
      [{ field: 'kind', message: 'must be one of embed_chat, block_chat' }],
    ],
    ['not an object', ['kind'], [{ field: '(body)', message: 'must be a JSON object' }]],
  ])('%s', (_n, body, errors) => {
    expect(validateNewTarget(body, registry)).toEqual({ ok: false, errors });
  });

  it("a PATCH changes name, enabled and the schedule only; null resets the schedule to the kind's", () => {
    expect(validateTargetChanges({ name: ' b ', enabled: false, retry_schedule_ms: null })).toEqual({
      ok: true,
      value: { name: 'b', enabled: false, retry_schedule_ms: null },
    });
    expect(validateTargetChanges({})).toEqual({ ok: true, value: {} });
  });

  it('a PATCH refuses a new kind or config (that is a new target), read-only and unknown fields, and bad values — all at once', () => {
    expect(validateTargetChanges({ kind: 'block_chat', config: {}, id: 'tg_1', colour: 'red', enabled: 1 })).toEqual({
      ok: false,
      errors: [
        { field: 'kind', message: 'cannot be changed here' },
        { field: 'config', message: 'cannot be changed here' },
        { field: 'id', message: 'is read-only' },
        { field: 'colour', message: 'is not a known field' },
        { field: 'enabled', message: 'must be true or false' },
      ],
    });
  });
});

describe('ordering (docs/ordering.md): its shape, and the kinds and payload formats it applies to', () => {
  const withWebhook = createRegistry([createEmbedChatKind({ secrets }), createWebhookKind({ secrets })]);
  const patch = (ordering: unknown) => validateTargetChanges({ ordering });

  it('keeps a payload field or a request header (lower-cased); null is no ordering', () => {
    expect(patch({ key: { from: 'path', path: 'data.id' } })).toEqual({
      ok: true,
      value: { ordering: { key: { from: 'path', path: 'data.id' } } },
    });
    expect(patch({ key: { from: 'header', header: ' X-Order-Key ' } })).toEqual({
      ok: true,
      value: { ordering: { key: { from: 'header', header: 'x-order-key' } } },
    });
    expect(patch(null)).toEqual({ ok: true, value: { ordering: null } });
  });

  it.each([
    ['not an object', 'data.id', 'ordering'],
    ['no key', {}, 'ordering.key'],
    ['an unknown source', { key: { from: 'body' } }, 'ordering.key.from'],
    ['an empty path part', { key: { from: 'path', path: 'data..id' } }, 'ordering.key.path'],
    ['a header name with a space', { key: { from: 'header', header: 'x order' } }, 'ordering.key.header'],
  ])('refuses %s, naming the field', (_what, ordering, field) => {
    expect(fieldsOf(patch(ordering))).toEqual([field]);
  });

  it('is refused on a kind whose deliverers do not keep keys in order, naming the kinds that do', () => {
    const sent = patch({ key: { from: 'header', header: 'x-k' } });
    expect(orderingApplies(sent, 'embed_chat', 'json', withWebhook)).toEqual({
      ok: false,
      errors: [
        { field: 'ordering', message: 'is not supported by embed_chat targets (only webhook; docs/ordering.md)' },
      ],
    });
    expect(orderingApplies(sent, 'webhook', 'json', withWebhook)).toBe(sent);
  });

  it('a payload field is refused on a payload format with no fields; a header is not', () => {
    const byPath = patch({ key: { from: 'path', path: 'id' } });
    expect(fieldsOf(orderingApplies(byPath, 'webhook', 'text', withWebhook))).toEqual(['ordering']);
    const byHeader = patch({ key: { from: 'header', header: 'x-k' } });
    expect(orderingApplies(byHeader, 'webhook', 'text', withWebhook)).toBe(byHeader);
  });
});
