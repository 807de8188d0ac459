import { RE2JS } from 're2js';
import { checkPattern, compileCostBound, compilePattern, compileRouting, programSizeBound } from '@relay/endpoints';
import type { Routing } from '@relay/endpoints';
import type { IngestAnswer } from './ingest';
import { ingest } from './ingest';
import { ruleCost } from './steps';
import type { ReadyView } from './steps';
import { compilePooledRules, evaluatePooled } from '../rules/pooled-rules';
import type { PooledJob } from '../rules/pooled-rules';
import { body, fakePorts, fakeRulePool, request, view } from './test-helpers';

/**
 * Where a request's pattern rules run (docs/security.md "Rule cost"): inline while what they may
 * cost — RE2 program size × characters of text, body filters, field rules and routing rules
 * together — is at most the pool's inline threshold; above it, in the rule pool, whose answers
 * (a verdict, a deadline, no room) become the documented refusals.
 */
const PATTERN = 'a[ab]{5}c';
const SIZE = compilePattern(PATTERN).programSize();
/** what a pattern not compiled yet may cost on `length` characters: its bound, testing and compiling */
const uncompiled = (pattern: string, length: number) => programSizeBound(pattern) * length + compileCostBound(pattern);

function refusal(answer: IngestAnswer) {
  if (answer.accepted) throw new Error('expected a refusal');
  return answer.rejection;
}

/** a view whose target `tg_1` is routed by a pattern on `kind` (raw and compiled, as the loader makes them) */
function routedView(over: Parameters<typeof view>[0] = {}): ReadyView {
  const v = view(over, 2) as ReadyView;
  const routing: Routing = { match: 'all', rules: [{ kind: 'regex', path: 'kind', pattern: '^order' }] };
  v.targets[1] = { ...v.targets[1]!, routing, route: compileRouting(routing) };
  return v;
}

const content = (v: ReadyView, text: string) => ({
  format: v.endpoint.payload_format,
  headers: {},
  rawBody: Buffer.from(text),
  rawQuery: '',
  data: JSON.parse(text) as unknown,
});

describe('the cost estimate: every pattern rule of the request, before any runs', () => {
  it('body filters × the raw body, field rules × their string, routing rules × their field text, summed', () => {
    const v = routedView({
      body_filters: [
        { kind: 'regex', pattern: PATTERN },
        { kind: 'contains', value: 'x' },
      ],
      field_rules: [{ path: 'note', pattern: PATTERN }],
    });
    const text = JSON.stringify({ note: 'abab', kind: 'order.paid', n: 1 });
    // nothing compiled yet: each pattern's bound from its source, and its compile
    expect(ruleCost(v, content(v, text))).toBe(
      uncompiled(PATTERN, text.length) + uncompiled(PATTERN, 4) + uncompiled('^order', 'order.paid'.length),
    );
    // once the rules ran inline: the compiled programs' sizes × the texts
    const data = JSON.parse(text) as unknown;
    v.settings.contentRules.bodyFilters(text);
    v.settings.contentRules.fields(data);
    for (const t of v.targets) t.route?.(data);
    expect(ruleCost(v, content(v, text))).toBe(
      SIZE * text.length + SIZE * 4 + compilePattern('^order').programSize() * 'order.paid'.length,
    );
  });

  it('no pattern rules: nothing, whatever the body', () => {
    const v = view({ body_filters: [{ kind: 'contains', value: 'x' }] }) as ReadyView;
    expect(ruleCost(v, content(v, JSON.stringify({ a: 'b'.repeat(10_000) })))).toBe(0);
  });
});

describe('dispatch: inline up to the threshold, the rule pool above it', () => {
  // each test its own view: rules compiled inline cost less on the next request
  const fresh = () => routedView({ body_filters: [{ kind: 'not_regex', pattern: PATTERN }] });
  const v = fresh();
  const text = JSON.stringify({ kind: 'invoice', pad: 'x'.repeat(100) });
  const cost = ruleCost(v, content(v, text));

  it('at the threshold the rules run inline: the pool is not asked, and routing is decided at accept', async () => {
    const pool = fakeRulePool(cost);
    const f = fakePorts(fresh(), { rules: pool.pool });
    expect(await ingest(f.ports, request(), body(text))).toMatchObject({ accepted: true, targetCount: 1 });
    expect(pool.jobs).toEqual([]);
    expect(f.rows[0]).toMatchObject({ outcome: 'ACCEPTED', not_routed: ['tg_1'] });
  });

  it('above it the pool evaluates them, for the account, and its routing decides the deliveries', async () => {
    const pool = fakeRulePool(cost - 1);
    const f = fakePorts(fresh(), { rules: pool.pool });
    expect(await ingest(f.ports, request(), body(text))).toMatchObject({ accepted: true, targetCount: 1 });
    expect(pool.jobs).toHaveLength(1);
    expect(pool.jobs[0]).toMatchObject({
      accountId: 'acc_1',
      job: { rules: { key: v.rulesKey, routing: [null, v.targets[1]!.routing] }, subject: text, fieldValidation: true },
    });
    expect(f.rows[0]).toMatchObject({ outcome: 'ACCEPTED', not_routed: ['tg_1'] });
  });

  it("the pool's refusal is the inline one: 400 request_body_filter_failed naming the filter", async () => {
    const failing = JSON.stringify({ kind: 'order', t: 'abbbbac' });
    const inline = refusal(await ingest(fakePorts(v).ports, request(), body(failing)));
    const pool = fakeRulePool(0);
    const pooled = refusal(await ingest(fakePorts(v, { rules: pool.pool }).ports, request(), body(failing)));
    expect(pool.jobs).toHaveLength(1);
    expect(pooled).toEqual(inline);
    expect([pooled.status, pooled.code, pooled.message]).toEqual([
      400,
      'request_body_filter_failed',
      'The request did not pass body filter 1 (not_regex).',
    ]);
  });

  it('a required header is checked inline first: a request without it never reaches the pool', async () => {
    const withHeader = routedView({
      required_headers: [{ name: 'X-Token' }],
      body_filters: [{ kind: 'regex', pattern: PATTERN }],
    });
    const pool = fakeRulePool(0);
    const r = refusal(await ingest(fakePorts(withHeader, { rules: pool.pool }).ports, request(), body(text)));
    expect(r.code).toBe('required_header_missing');
    expect(pool.jobs).toEqual([]);
  });
});

describe('compiling: on the loop only when cheap, once per revision', () => {
  /** the default RULES_INLINE_COST */
  const INLINE_COST = 2000;
  /** a pattern near the largest program the save-time check admits */
  const LARGEST = 'abcdefghi'.replace(/./g, '$&{1000}');
  let compiles: jest.SpyInstance;
  beforeEach(() => (compiles = jest.spyOn(RE2JS, 'compile')));
  afterEach(() => compiles.mockRestore());

  it('every slot at the largest program and an empty body: nothing compiled on the loop, the pool evaluates', async () => {
    expect(checkPattern(LARGEST)).toBeNull();
    expect(compilePattern(LARGEST).programSize()).toBeGreaterThan(9000);
    compiles.mockClear();
    const v = routedView({
      body_filters: Array.from({ length: 20 }, () => ({ kind: 'regex' as const, pattern: LARGEST })),
      field_rules: Array.from({ length: 50 }, (_, i) => ({ path: `f${i}`, pattern: LARGEST })),
    });
    const routes: boolean[] = [true, true];
    for (const text of ['{}', JSON.stringify({ f0: '', kind: '' })]) {
      const pool = fakeRulePool(INLINE_COST, { done: { check: { ok: true }, routes } });
      const f = fakePorts(v, { rules: pool.pool });
      expect(await ingest(f.ports, request(), body(text))).toMatchObject({ accepted: true });
      expect(pool.jobs).toHaveLength(1);
    }
    expect(compiles).not.toHaveBeenCalled();
  });

  it.each([
    ['a folded wide class', '(?i)[\\x{100}-\\x{1E900}]'],
    ['Unicode classes', '\\pL'.repeat(10)],
  ])(
    '%s, small in program size but milliseconds to compile, on an empty body: the pool compiles it, not the loop',
    async (_name, pattern) => {
      expect(programSizeBound(pattern)).toBeLessThan(50);
      compiles.mockClear();
      const pool = fakeRulePool(INLINE_COST, { done: { check: { ok: true }, routes: [true] } });
      const f = fakePorts(view({ body_filters: [{ kind: 'regex', pattern }] }), { rules: pool.pool });
      expect(await ingest(f.ports, request(), body('{}'))).toMatchObject({ accepted: true });
      expect(pool.jobs).toHaveLength(1);
      expect(compiles).not.toHaveBeenCalled();
    },
  );

  it('ordinary small patterns run inline, compiled when first needed and not again for the same revision', async () => {
    compiles.mockClear();
    const v = routedView({
      body_filters: [{ kind: 'regex', pattern: '^\\{' }],
      field_rules: [{ path: 'email', pattern: '^\\S+@\\S+$' }],
    });
    expect(compiles).not.toHaveBeenCalled();
    const text = JSON.stringify({ email: 'a@example.com', kind: 'order.paid' });
    for (let n = 0; n < 3; n++) {
      const pool = fakeRulePool(INLINE_COST);
      expect(await ingest(fakePorts(v, { rules: pool.pool }).ports, request(), body(text))).toMatchObject({
        accepted: true,
        targetCount: 2,
      });
      expect(pool.jobs).toEqual([]);
    }
    expect(compiles.mock.calls.map(([pattern]) => pattern)).toEqual(['^\\{', '^\\S+@\\S+$', '^order']);
  });
});

describe("the pool's evaluation is the inline one", () => {
  it.each(['any', 'all'] as const)('routing with match %s: rule by rule, as compileRouting decides', (match) => {
    const routing: Routing = {
      match,
      rules: [
        { kind: 'regex', path: 'kind', pattern: '^order' },
        { kind: 'gt', path: 'amount', value: 100 },
      ],
    };
    const job = (data: unknown): PooledJob => ({
      rules: { key: 'k', body_filters: [], field_rules: [], routing: [routing, null] },
      subject: null,
      data,
      fieldValidation: false,
    });
    const compiled = compilePooledRules(job(null).rules);
    const seen: unknown[] = [];
    for (const data of [
      { kind: 'order', amount: 5 },
      { kind: 'invoice', amount: 500 },
      { kind: 'order', amount: 500 },
      {},
    ]) {
      const verdict = evaluatePooled(compiled, job(data), (...at) => seen.push(at));
      expect(verdict.routes).toEqual([compileRouting(routing)!(data), true]);
    }
    // each rule is announced with its target before it runs; `any` stops at the first met
    expect(seen[0]).toEqual(['routing', 0, 0]);
  });
});

describe("the rule pool's other answers", () => {
  const v = routedView({
    body_filters: [
      { kind: 'contains', value: '{' },
      { kind: 'regex', pattern: PATTERN },
    ],
    field_rules: [{ path: 'order.note', pattern: PATTERN }],
  });
  const text = JSON.stringify({ kind: 'order', order: { note: 'abbbbac' } });

  it.each([
    [{ stage: 'body_filter', index: 1 }, 'body filter 2 (regex)'],
    [{ stage: 'field_rule', index: 0 }, 'the field rule on order.note'],
    [{ stage: 'routing', index: 1, rule: 0 }, 'routing rule 1 of target tg_1'],
    [null, 'the rules'],
  ] as const)('deadline at %j: 413 rules_deadline_exceeded naming %s, row PAYLOAD_TOO_LARGE', async (at, named) => {
    const f = fakePorts(v, { rules: fakeRulePool(0, { deadline: at }).pool });
    const r = refusal(await ingest(f.ports, request(), body(text)));
    expect([r.status, r.code, r.outcome]).toEqual([413, 'rules_deadline_exceeded', 'PAYLOAD_TOO_LARGE']);
    expect(r.message).toBe(
      `The endpoint's rules did not finish within 500 ms on this payload (stopped in ${named}). Send a smaller payload, or simplify that rule.`,
    );
    expect(f.rows.map((row) => row.outcome)).toEqual(['PAYLOAD_TOO_LARGE']);
    expect(f.published).toEqual([]);
  });

  it("the account's share of the pool in use: 429 rules_busy, Retry-After 1, row RATE_LIMITED", async () => {
    const f = fakePorts(v, { rules: fakeRulePool(0, { busy: 'account' }).pool });
    const r = refusal(await ingest(f.ports, request(), body(text)));
    expect([r.status, r.code, r.retryAfterSeconds, r.outcome]).toEqual([429, 'rules_busy', 1, 'RATE_LIMITED']);
  });

  it('the pool queue full: 503 endpoint_unavailable, Retry-After 60, row RATE_LIMITED with the reason', async () => {
    const f = fakePorts(v, { rules: fakeRulePool(0, { busy: 'pool' }).pool });
    const r = refusal(await ingest(f.ports, request(), body(text)));
    expect([r.status, r.code, r.retryAfterSeconds, r.outcome]).toEqual([
      503,
      'endpoint_unavailable',
      60,
      'RATE_LIMITED',
    ]);
    expect(f.rows[0]).toMatchObject({ outcome: 'RATE_LIMITED', reason: 'the rule pool queue is full' });
  });
});

describe('a stored pattern RE2 cannot compile: the endpoint is unavailable, as with settings that cannot be prepared', () => {
  /** lookbehind: refused at save today, but a stored record may hold it */
  const BROKEN = '(?<=@)example';
  const text = JSON.stringify({ email: 'a@example.com', kind: 'order' });
  const unavailable = async (v: ReadyView, pool = fakeRulePool(2000)) => {
    const f = fakePorts(v, { rules: pool.pool });
    const r = refusal(await ingest(f.ports, request(), body(text)));
    expect([r.status, r.code, r.retryAfterSeconds, r.outcome]).toEqual([503, 'endpoint_unavailable', 60, null]);
    expect(r.reason).toMatch(/^a stored pattern cannot be compiled \(.+\)$/);
    expect([f.rows, f.published]).toEqual([[], []]);
    return f;
  };

  it.each([
    ['a body filter', { body_filters: [{ kind: 'regex' as const, pattern: BROKEN }] }],
    ['a field rule', { field_rules: [{ path: 'email', pattern: BROKEN }] }],
  ])('inline, in %s: 503, no row, nothing published', async (_name, over) => {
    await unavailable(view(over) as ReadyView);
  });

  it('inline, in a routing rule decided at accept: 503, no row, the quota counted back', async () => {
    const v = routedView();
    const routing: Routing = { match: 'all', rules: [{ kind: 'regex', path: 'kind', pattern: BROKEN }] };
    v.targets[1] = { ...v.targets[1]!, routing, route: compileRouting(routing) };
    const f = await unavailable(v);
    expect([f.calls.admit.length, f.calls.refund]).toEqual([1, 1]);
  });

  it("in the pool, answered unusable: 503, no row, the pool's reason", async () => {
    const pool = fakeRulePool(0, {
      unusable: 'a stored pattern cannot be compiled (invalid or unsupported Perl syntax)',
    });
    await unavailable(routedView({ field_rules: [{ path: 'email', pattern: PATTERN }] }), pool);
    expect(pool.jobs).toHaveLength(1);
  });
});
