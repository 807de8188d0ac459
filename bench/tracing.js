// The CPU the tracing hooks add per event (docs/observability.md "Cost"), in one process, without
// the network: the gateway's spans of one accepted event (ingest + 4 asynchronous steps + the 2
// synchronous ones, sender auth and parse and validate, + a traceparent per delivery message) with tracing off and on (spans exported to a sink that drops them, so the
// number is Relay's and the SDK's share, not an OTLP collector's). BENCH_EVENTS (default 200000).
'use strict';
const { inSpan, inSyncSpan, startTracing, stopTracing, traceHeaders, linkFrom } = require('@relay/telemetry');
const { writeResults } = require('./lib');

const events = Number(process.env.BENCH_EVENTS || 200000);
const step = async () => undefined;
/** @param {number} a @param {number} b @param {number} c */
const syncStep = (a, b, c) => a + b + c;
/** @param {number} result */
const describe = (result) => ({ 'relay.outcome': result > 0 ? 'passed' : 'failed' });

/** One event through the hooks the gateway runs. */
async function event() {
  return inSpan(
    'ingest',
    async () => {
      await inSpan('endpoint lookup', step);
      inSyncSpan('sender auth', syncStep, 1, 2, 3, describe);
      inSyncSpan('parse and validate', syncStep, 1, 2, 3, describe);
      for (const name of ['idempotency claim', 'limits']) await inSpan(name, step);
      await inSpan('publish deliveries', async () => traceHeaders());
    },
    { links: linkFrom({}) },
  );
}

/** CPU microseconds per event (user + system) over `events` events, after a warm-up. */
async function measure() {
  for (let i = 0; i < 20000; i += 1) await event();
  const start = process.cpuUsage();
  for (let i = 0; i < events; i += 1) await event();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / events;
}

async function main() {
  const bare = await (async () => {
    const start = process.cpuUsage();
    for (let i = 0; i < events; i += 1) {
      for (let k = 0; k < 4; k += 1) await step();
      syncStep(1, 2, 3);
      syncStep(1, 2, 3);
    }
    const used = process.cpuUsage(start);
    return (used.user + used.system) / events;
  })();
  const off = await measure();
  /** @type {import('@opentelemetry/sdk-trace-base').SpanExporter} */
  const sink = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => undefined };
  startTracing('bench', { exporter: sink });
  const on = await measure();
  await stopTracing();
  console.log(
    `tracing hooks, ${events} events: the steps alone ${bare.toFixed(2)} µs CPU/event; off ${off.toFixed(2)} µs (+${(off - bare).toFixed(2)}); on ${on.toFixed(2)} µs (+${(on - bare).toFixed(2)})`,
  );
  const us = (/** @type {number} */ n) => Number(n.toFixed(2));
  writeResults('tracing', {
    at: new Date().toISOString(),
    events,
    bare_us: us(bare),
    off_us_over_bare: us(off - bare),
    on_us_over_bare: us(on - bare),
  });
}

main().catch((err) => {
  console.error(`bench failed: ${err.stack || err}`);
  process.exit(1);
});
