import path from 'node:path';
import { PassThrough } from 'node:stream';
import { createLogger } from '@relay/logging';
import type { PoolAnswer } from '../../domain/ports';
import { compilePooledRules, evaluatePooled } from '../../domain/rules/pooled-rules';
import type { PooledJob, PooledRules } from '../../domain/rules/pooled-rules';
import { createRulePool } from './pool';
import type { RulePoolOptions } from './pool';

/**
 * The rule pool on real worker threads (docs/security.md "Rule cost"): the worker is the built
 * one (dist/, as main.ts runs it; the unit tier builds first). Outcomes only, never timings.
 */
const WORKER = path.resolve(__dirname, '../../../dist/adapters/rule-pool/worker.js');
/** RE2 program size about 10,000, the most the save-time check admits: re2js simulates its NFA, ~0.1 ms a character */
const WORST = '(?:a|b|aa|bb|ab|ba){767}c';
const AB = `${'ab'.repeat(50_000)}c`;

const pools: ReturnType<typeof createRulePool>[] = [];
afterAll(() => Promise.all(pools.map((p) => p.close())));

function pool(over: Partial<RulePoolOptions> = {}) {
  const p = createRulePool({
    filename: WORKER,
    size: 1,
    deadlineMs: 1000,
    inlineCost: 0,
    queueMax: 64,
    accountMax: 8,
    logger: createLogger({ service: 'test', level: 'error', stream: new PassThrough() }),
    ...over,
  });
  pools.push(p);
  return p;
}

const rules = (over: Partial<PooledRules> = {}): PooledRules => ({
  key: 'ep_1@1',
  body_filters: [],
  field_rules: [],
  routing: [],
  ...over,
});
const job = (r: PooledRules, subject: string | null, data: unknown = {}): PooledJob => ({
  rules: r,
  subject,
  data,
  fieldValidation: true,
});
const cheap = job(rules({ body_filters: [{ kind: 'regex', pattern: 'b+' }] }), 'abc');
const slowRules = rules({
  key: 'ep_slow@1',
  body_filters: [
    { kind: 'contains', value: 'a' },
    { kind: 'regex', pattern: WORST },
  ],
});
const slow = job(slowRules, AB);

describe('rule pool', () => {
  it('answers what the same functions answer in this thread: filters, field rules, routing per target', async () => {
    const j = job(
      rules({
        body_filters: [{ kind: 'regex', pattern: '"kind":"order' }],
        field_rules: [{ path: 'email', pattern: '^\\S+@\\S+$' }],
        routing: [null, { match: 'all', rules: [{ kind: 'regex', path: 'kind', pattern: '^invoice' }] }],
      }),
      '{"kind":"order","email":"a@b.c"}',
      { kind: 'order', email: 'a@b.c' },
    );
    const expected = evaluatePooled(compilePooledRules(j.rules), j, () => undefined);
    expect(expected).toEqual({ check: { ok: true }, routes: [true, false] });
    expect(await pool().evaluate('acc_1', j)).toEqual({ done: expected });
    const failing = { ...j, data: { kind: 'order', email: 'not an address' } };
    expect(await pool().evaluate('acc_1', failing)).toEqual({
      done: evaluatePooled(compilePooledRules(j.rules), failing, () => undefined),
    });
  }, 30_000);

  it('past the deadline: answered with the rule that was running, the worker replaced, the next job evaluated', async () => {
    const counted: string[] = [];
    const p = pool({ onAnswer: (a) => counted.push(a) });
    expect(await p.evaluate('acc_1', slow)).toEqual({ deadline: { stage: 'body_filter', index: 1 } });
    expect(await p.evaluate('acc_1', cheap)).toEqual({ done: { check: { ok: true }, routes: [] } });
    // a routing rule is named with its target
    const routing = rules({
      key: 'ep_routing@1',
      routing: [
        null,
        {
          match: 'any',
          rules: [
            { kind: 'exists', path: 'absent' },
            { kind: 'regex', path: 'f0', pattern: WORST },
          ],
        },
      ],
    });
    expect(await p.evaluate('acc_1', job(routing, null, { f0: AB }))).toEqual({
      deadline: { stage: 'routing', index: 1, rule: 1 },
    });
    expect(counted).toEqual(['deadline', 'done', 'deadline']);
  }, 30_000);

  it('a stored pattern RE2 cannot compile: answered unusable with why, the worker kept, the next job evaluated', async () => {
    const counted: string[] = [];
    const p = pool({ onAnswer: (a) => counted.push(a) });
    const broken = job(rules({ key: 'ep_broken@1', field_rules: [{ path: 'email', pattern: '(?<=@)x' }] }), null, {
      email: 'a@x',
    });
    for (let n = 0; n < 2; n++) {
      const answer = await p.evaluate('acc_1', broken);
      expect(answer).toEqual({ unusable: expect.stringMatching(/^a stored pattern cannot be compiled \(.+\)$/) });
    }
    expect(await p.evaluate('acc_1', cheap)).toEqual({ done: { check: { ok: true }, routes: [] } });
    expect(counted).toEqual(['unusable', 'unusable', 'done']);
  }, 30_000);

  it('one account has at most accountMax jobs waiting or running; another account is still taken', async () => {
    const counted: string[] = [];
    const p = pool({ accountMax: 2, onAnswer: (a) => counted.push(a) });
    const answers = [p.evaluate('acc_1', cheap), p.evaluate('acc_1', cheap), p.evaluate('acc_1', cheap)];
    const other = p.evaluate('acc_2', cheap);
    expect(await Promise.all(answers)).toEqual([
      { done: { check: { ok: true }, routes: [] } },
      { done: { check: { ok: true }, routes: [] } },
      { busy: 'account' },
    ]);
    expect(await other).toEqual({ done: { check: { ok: true }, routes: [] } });
    // places are given back as jobs end
    expect(await p.evaluate('acc_1', cheap)).toMatchObject({ done: { check: { ok: true } } });
    // what relay_ingest_rule_pool_total counts
    expect(counted.sort()).toEqual(['busy_account', 'done', 'done', 'done', 'done']);
  }, 30_000);

  it('at most queueMax jobs wait, all accounts together', async () => {
    const counted: string[] = [];
    const p = pool({ queueMax: 2, onAnswer: (a) => counted.push(a) });
    // the worker is ready: the next job runs at once, the two after it wait, the fourth finds no room
    await p.evaluate('acc_0', cheap);
    const answers = await Promise.all(['acc_1', 'acc_2', 'acc_3', 'acc_4'].map((a) => p.evaluate(a, cheap)));
    expect(answers.map((a) => ('busy' in a ? a.busy : 'done'))).toEqual(['done', 'done', 'done', 'pool']);
    expect(counted.filter((a) => a !== 'done')).toEqual(['busy_pool']);
  }, 30_000);

  it('accounts take turns: a second account waits behind at most one of the first one’s jobs, not its whole queue', async () => {
    const p = pool();
    // the worker is ready: the first hostile job runs at once, the rest wait
    await p.evaluate('acc_hostile', cheap);
    const finished: string[] = [];
    const track = async (name: string, answer: Promise<PoolAnswer>) => {
      const a = await answer;
      finished.push(name);
      return a;
    };
    const hostile = [1, 2, 3].map((i) => track(`hostile ${i}`, p.evaluate('acc_hostile', slow)));
    const quiet = track('quiet', p.evaluate('acc_quiet', cheap));
    expect(await Promise.all(hostile)).toEqual(
      Array.from({ length: 3 }, () => ({ deadline: { stage: 'body_filter', index: 1 } })),
    );
    expect(await quiet).toEqual({ done: { check: { ok: true }, routes: [] } });
    expect(finished).toEqual(['hostile 1', 'hostile 2', 'quiet', 'hostile 3']);
  }, 30_000);

  it('closed: a job still waiting or running is answered as if the pool were full', async () => {
    const p = pool();
    await p.evaluate('acc_1', cheap);
    const running = p.evaluate('acc_1', slow);
    const waiting = p.evaluate('acc_2', cheap);
    await p.close();
    expect(await Promise.all([running, waiting])).toEqual([{ busy: 'pool' }, { busy: 'pool' }]);
  }, 30_000);
});
