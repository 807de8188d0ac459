// npm run bench (rule cost, docs/security.md "Rule cost"): one gateway process with its default
// rule settings on the real local Redis, RabbitMQ and FerretDB. A quiet account's endpoint
// without rules is loaded with '{}' POSTs (autocannon, closed loop) in five phases of one run:
//   alone;
//   beside a pool tenant: BENCH_HOSTILE_SENDERS closed-loop senders of bodies at the payload
//     limit to an endpoint with every body-filter and field-rule slot the worst admitted pattern
//     (RE2 program size ~10,000): each request goes to the rule pool and is stopped at its deadline;
//   beside an inline tenant: the same senders, to an endpoint whose one body filter has the worst
//     measured cost per unit (`\pL[\pL\pN]{30}!`) on bodies of the largest size whose estimate
//     still runs inline (RULES_INLINE_COST): the most the event loop gives one request;
//   and before each of those, beside a control tenant: the same senders and bodies to an endpoint
//     without rules, so that the difference is what the rules cost the quiet account.
// First, in this process and before any load, it calibrates the rule-cost units: µs of the event
// loop per unit of the estimate, compiling and matching, for ordinary and costly patterns.
// Prints and records the quiet account's p50/p99 per phase and the tenants' answers by status;
// timing belongs here, not in the tests (test/e2e/hostile-rules.test.ts asserts outcomes).
//
//   node bench/hostile-rules.js
//   BENCH_DURATION_S=3 node bench/hostile-rules.js   # short mode
// Writes <results>/hostile-rules.json.
'use strict';
const os = require('node:os');
const { randomBytes } = require('node:crypto');
const path = require('node:path');
const { connectStore, insertAccount, insertEndpoint } = require('@relay/store');
const { newId } = require('@relay/contracts');
const { compileCostBound, compilePattern, MAX_BODY_FILTERS, MAX_FIELD_RULES } = require('@relay/endpoints');
const { deleteBrokerNamespace, envNumber: num, freePort, load, startProcess, waitFor, writeResults } = require('./lib');
const { configSpec } = require('../services/ingest-gateway/dist/config');

const ROOT = path.resolve(__dirname, '..');
const DURATION_S = num(process.env.BENCH_DURATION_S, 15);
const CONNECTIONS = num(process.env.BENCH_CONNECTIONS, 8);
/** closed-loop senders of each hostile tenant */
const SENDERS = num(process.env.BENCH_HOSTILE_SENDERS, 4);
const PAYLOAD_LIMIT = 262_144;
/** the most the save-time check admits: program size just under 10,000, matched by NFA simulation */
const WORST = '(?:a|b|aa|bb|ab|ba){767}c';
/** the highest cost per unit of program size measured (docs/security.md "Rule cost") */
const INLINE_PATTERN = '\\pL[\\pL\\pN]{30}!';
const INLINE_COST = /** @type {number} */ (configSpec.rulesInlineCost.default);
/**
 * the longest body whose estimate stays inline under that filter once compiled; the warm-up's
 * first request, small enough for the compile to be inline too, compiles it
 */
const INLINE_BODY_BYTES = Math.floor(INLINE_COST / compilePattern(INLINE_PATTERN).programSize());
const env = {
  RABBITMQ_URL: process.env.RABBITMQ_URL || 'amqp://127.0.0.1:5672',
  REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  MONGODB_BASE: process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/relay',
};
const QUIET = newId('ep');
const POOL_TENANT = newId('ep');
const INLINE_TENANT = newId('ep');
const CONTROL = newId('ep');

/** µs of `fn`, the median of 9 timings of enough calls to take about 2 ms (warm: after 3 calls) */
function micros(/** @type {() => unknown} */ fn) {
  for (let k = 0; k < 3; k++) fn();
  const once = process.hrtime.bigint();
  fn();
  const n = Math.max(1, Math.min(200, Math.round(2e6 / Number(process.hrtime.bigint() - once))));
  const runs = [];
  for (let k = 0; k < 9; k++) {
    const start = process.hrtime.bigint();
    for (let j = 0; j < n; j++) fn();
    runs.push(Number(process.hrtime.bigint() - start) / n / 1000);
  }
  return runs.sort((a, b) => a - b)[4];
}

/**
 * The rule-cost units measured (docs/security.md "Rule cost"): per pattern, µs of the event loop
 * per unit of its estimate, for compiling (compileCostBound) and for matching (program size ×
 * characters, on the text each is slowest on). Patterns: ordinary ones, and those whose compile
 * program size does not show (Unicode classes, folding, long sources). The largest is what one
 * unit is worth; the inline threshold is that many units.
 */
function calibrate() {
  const wide = '(?i)[\\x{41}-\\x{1E941}]';
  const compiles = [
    '^\\S+@\\S+$',
    '(?i)secret',
    INLINE_PATTERN,
    '\\pL'.repeat(300),
    '[^\\pL]'.repeat(50),
    '(?i)\\PL'.repeat(50),
    wide,
    wide.repeat(40),
    '(?i)' + 'abcdefghijklmnopqrstuvwxyz'.repeat(39),
    '(?s).'.repeat(200),
    'abcdefghi'.replace(/./g, '$&{300}'),
    WORST,
  ].map((pattern) => {
    const estimate = compileCostBound(pattern);
    const us = micros(() => compilePattern(pattern));
    return { pattern: short(pattern), estimate, us: round(us), us_per_unit: round(us / estimate, 3) };
  });
  const matches = [
    { pattern: '^\\S+@\\S+$', text: `${'a'.repeat(25)}@${'b'.repeat(24)}` },
    { pattern: '(?i)secret', text: 'SECRE'.repeat(10) },
    { pattern: INLINE_PATTERN, text: `${'az'.repeat(25)}!` },
    { pattern: INLINE_PATTERN, text: `${'aQ7z'.repeat(250)}!` },
    { pattern: 'a[ab]{12}c', text: 'ab'.repeat(500) },
    { pattern: WORST, text: `${'ab'.repeat(500)}c` },
  ].map(({ pattern, text }) => {
    const re = compilePattern(pattern);
    const estimate = re.programSize() * text.length;
    const us = micros(() => re.test(text));
    return {
      pattern: short(pattern),
      characters: text.length,
      estimate,
      us: round(us),
      us_per_unit: round(us / estimate, 4),
    };
  });
  const worst = (/** @type {{ us_per_unit: number }[]} */ rows) => Math.max(...rows.map((r) => r.us_per_unit));
  return { compiles, matches, worst_compile_us_per_unit: worst(compiles), worst_match_us_per_unit: worst(matches) };
}

const round = (/** @type {number} */ x, digits = 1) => Number(x.toFixed(digits));
const short = (/** @type {string} */ p) => (p.length > 40 ? `${p.slice(0, 37)}... (${p.length} characters)` : p);

/** @param {string} mongodbUrl */
async function seed(mongodbUrl) {
  const store = await connectStore(mongodbUrl);
  /** @param {string} account @param {string} endpoint @param {object} rules */
  const add = async (account, endpoint, rules) => {
    await insertAccount(store, {
      id: account,
      name: account,
      plan: { name: 'bench', monthly_accepted_events: 1e9, payload_limit_bytes: PAYLOAD_LIMIT },
    });
    await insertEndpoint(store, endpoint, account, {
      name: account,
      enabled: true,
      paused: false,
      methods: ['POST'],
      payload_format: 'json',
      inbound_auth: { type: 'NONE' },
      rate_limit_per_minute: 1_000_000,
      ...rules,
    });
  };
  await add('acc_quiet', QUIET, {});
  await add('acc_pool', POOL_TENANT, {
    body_filters: Array.from({ length: MAX_BODY_FILTERS }, () => ({ kind: 'not_regex', pattern: WORST })),
    field_rules: Array.from({ length: MAX_FIELD_RULES }, (_, i) => ({ path: `f${i}`, pattern: WORST })),
  });
  await add('acc_inline', INLINE_TENANT, { body_filters: [{ kind: 'not_regex', pattern: INLINE_PATTERN }] });
  await add('acc_control', CONTROL, {});
  return store;
}

/**
 * A JSON object of exactly `bytes` bytes: field f0 is random text of `alphabet` (one-byte
 * characters) ending in `last`, what the tenant's pattern is slowest on.
 * @param {number} bytes @param {string[]} alphabet @param {string} last
 */
function bodyOf(bytes, alphabet, last) {
  const n = bytes - JSON.stringify({ f0: last }).length;
  const text = Array.from({ length: n }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
  return JSON.stringify({ f0: `${text}${last}` });
}

/** Made ahead, so that the bench's own event loop, which also times the quiet account, stays free. */
const bodies = (/** @type {() => string} */ make) => {
  const made = Array.from({ length: 16 }, make);
  let i = 0;
  return () => made[i++ % made.length];
};

const poolBodies = bodies(() => bodyOf(PAYLOAD_LIMIT, ['a', 'b'], 'c'));
// letters and digits of one byte, so that the byte count is the character count the estimate uses;
// the `!` after a `-`, so that the not_regex filter scans all and passes: the tenant's requests are
// accepted, as its control's are
const inlineBodies = bodies(() => bodyOf(INLINE_BODY_BYTES, ['a', 'z', 'Q', '7'], '-!'));
/** the phases beside the quiet account, in order: each tenant after its control */
const TENANTS = {
  pool_control: { id: CONTROL, body: poolBodies },
  pool: { id: POOL_TENANT, body: poolBodies },
  inline_control: { id: CONTROL, body: inlineBodies },
  inline: { id: INLINE_TENANT, body: inlineBodies },
};

/**
 * SENDERS closed-loop senders to `url` until `until`; their answers by status and code.
 * @param {string} url @param {() => string} makeBody @param {number} until
 */
async function sendersLoad(url, makeBody, until) {
  /** @type {Record<string, number>} */
  const answers = {};
  const sender = async () => {
    while (Date.now() < until) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: makeBody(),
      });
      const answer = /** @type {{ code?: string }} */ (await res.json());
      const key = `${res.status}${answer.code ? ` ${answer.code}` : ''}`;
      answers[key] = (answers[key] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: SENDERS }, sender));
  return answers;
}

async function main() {
  // before the gateway starts, so nothing else runs on the machine meanwhile
  const calibration = calibrate();
  const namespace = `bench_${randomBytes(3).toString('hex')}`;
  const mongodbUrl = env.MONGODB_BASE.replace(/\/[^/]*$/, `/${namespace}`);
  const store = await seed(mongodbUrl);
  const [port, healthPort] = [await freePort(), await freePort()];
  const gateway = startProcess(path.join(ROOT, 'services/ingest-gateway/dist/main.js'), {
    RABBITMQ_URL: env.RABBITMQ_URL,
    REDIS_URL: env.REDIS_URL,
    MONGODB_URL: mongodbUrl,
    RELAY_NAMESPACE: namespace,
    PORT: String(port),
    HEALTH_PORT: String(healthPort),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SECRETS_KEYS: `bench:${randomBytes(32).toString('base64')}`,
  });
  try {
    await waitFor(`http://127.0.0.1:${healthPort}/readyz`);
    const url = (/** @type {string} */ id) => `http://127.0.0.1:${port}/relay/${id}`;
    const opts = {
      connections: CONNECTIONS,
      durationS: DURATION_S,
      body: '{}',
      headers: { 'content-type': 'application/json' },
    };
    // warm up: JIT, the endpoint cache, the patterns' first use, the pool's workers
    await load(url(QUIET), { ...opts, durationS: 2 });
    // the inline tenant's filter compiled on the loop, by a request small enough for that
    await fetch(url(INLINE_TENANT), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    for (const t of Object.values(TENANTS)) await sendersLoad(url(t.id), t.body, Date.now() + 2000);
    const beside = async (/** @type {keyof typeof TENANTS} */ name) => {
      const t = TENANTS[name];
      const [quiet, answers] = await Promise.all([
        load(url(QUIET), opts),
        sendersLoad(url(t.id), t.body, Date.now() + DURATION_S * 1000),
      ]);
      return { quiet, answers };
    };
    const alone = await load(url(QUIET), opts);
    /** @type {Record<string, Awaited<ReturnType<typeof beside>>>} */
    const phases = {};
    for (const name of /** @type {(keyof typeof TENANTS)[]} */ (Object.keys(TENANTS)))
      phases[name] = await beside(name);
    const p99 = (/** @type {string} */ name) => phases[name].quiet.p99_ms;
    const report = {
      at: new Date().toISOString(),
      machine: `${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)} at the end (shared)`,
      command: 'node bench/hostile-rules.js',
      settings: Object.fromEntries(
        [
          configSpec.rulesInlineCost,
          configSpec.rulesDeadlineMs,
          configSpec.rulesPoolSize,
          configSpec.rulesPoolQueue,
          configSpec.rulesPoolAccountMax,
        ].map((v) => [v.env, v.default]),
      ),
      pool_tenant: {
        body_bytes: PAYLOAD_LIMIT,
        body_filters: MAX_BODY_FILTERS,
        field_rules: MAX_FIELD_RULES,
        pattern: WORST,
      },
      inline_tenant: { body_bytes: INLINE_BODY_BYTES, body_filter: INLINE_PATTERN },
      load: { tool: 'autocannon (closed loop)', connections: CONNECTIONS, duration_s: DURATION_S, senders: SENDERS },
      calibration,
      quiet_alone: alone,
      quiet_beside: Object.fromEntries(Object.entries(phases).map(([name, phase]) => [name, phase.quiet])),
      tenant_answers: Object.fromEntries(Object.entries(phases).map(([name, phase]) => [name, phase.answers])),
      /** what each hostile tenant's rules added to the quiet account's p99 over the same load without rules */
      p99_over_control_ms: {
        pool: Number((p99('pool') - p99('pool_control')).toFixed(1)),
        inline: Number((p99('inline') - p99('inline_control')).toFixed(1)),
      },
    };
    writeResults('hostile-rules', report);
    const row = (/** @type {string} */ name, /** @type {Awaited<ReturnType<typeof load>>} */ r) =>
      `${name.padEnd(22)} ${r.accepted_per_s} accepted/s   p50 ${r.p50_ms} ms   p99 ${r.p99_ms} ms`;
    console.log('rule-cost units:', JSON.stringify(calibration));
    console.log(`\nrule cost: quiet account, ${CONNECTIONS} connections × ${DURATION_S} s, '{}' POST`);
    console.log(row('alone', alone));
    for (const [name, phase] of Object.entries(phases))
      console.log(
        `${row(`beside ${name.replace('_', ' ')}`, phase.quiet)}   (tenant answers ${JSON.stringify(phase.answers)})`,
      );
  } finally {
    gateway.kill('SIGTERM');
    await gateway.exited;
    await store.connection.dropDatabase().catch(() => undefined);
    await store.close();
    await deleteBrokerNamespace(env.RABBITMQ_URL, namespace);
  }
}

main().catch((err) => {
  console.error(`bench failed: ${err.stack || err}`);
  process.exit(1);
});
