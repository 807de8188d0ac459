// What one event's resends cost: the services started as scripts/start.sh starts
// them (fresh namespace and database), one endpoint with 5 webhook targets to a local receiver, one
// event, then N resends of it through POST /v1/activity/:eventId/resend. At 10, 100 and N resends it
// prints the row's size (its JSON through GET /v1/activity/:eventId, once its deliveries reported)
// and the median time of 10 row reads and of the resend calls since the last checkpoint. Resends
// past the documented allowance (100 deliveries per event) answer 409 resend_limit_reached.
//
//   node bench/resend.js               (BENCH_RESENDS: 1000; BENCH_RESENDS=100 is the smoke mode)
//   MONGODB_URL, REDIS_URL, RABBITMQ_URL, BENCH_RESULTS_DIR as the other benches
'use strict';
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const {
  deleteBrokerNamespace,
  envNumber,
  freePort,
  percentile,
  runToCompletion,
  startProcess,
  stopProcess,
  waitReady,
} = require('./lib');

const ROOT = path.resolve(__dirname, '..');
const RESENDS = Math.max(10, envNumber(process.env.BENCH_RESENDS, 1000));
const TARGETS = 5;
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR || path.join(ROOT, 'bench-results');
/** @type {{ name: string; program?: string; env?: Record<string, string>; portVar: string }[]} */
const SERVICES = [
  { name: 'management-api', portVar: 'PORT' },
  { name: 'ingest-gateway', portVar: 'PORT' },
  { name: 'webhook-deliverer', program: 'deliverer', env: { DELIVERY_CHANNEL: 'webhook' }, portVar: 'HEALTH_PORT' },
  { name: 'activity-writer', portVar: 'HEALTH_PORT' },
];
const ms = (/** @type {number} */ t) => Number((performance.now() - t).toFixed(1));
const median = (/** @type {number[]} */ list) =>
  percentile(
    [...list].sort((a, b) => a - b),
    50,
  );

async function main() {
  const namespace = `bench_resend_${randomBytes(4).toString('hex')}`;
  const mongo = new URL(process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/relay');
  mongo.pathname = `/${namespace}`;
  /** @type {Record<string, number>} */
  const ports = {};
  for (const s of SERVICES) ports[s.name] = await freePort();
  const gatewayHealth = await freePort();
  const rabbitmqUrl = process.env.RABBITMQ_URL || 'amqp://127.0.0.1:5672';
  const env = {
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    RABBITMQ_URL: rabbitmqUrl,
    MONGODB_URL: mongo.toString(),
    SECRETS_KEYS: `bench:${randomBytes(32).toString('base64')}`,
    GATEWAY_PORT: String(ports['ingest-gateway']),
    PUBLIC_BASE_URL: `http://127.0.0.1:${ports['ingest-gateway']}`,
    SSRF_ALLOW_CIDRS: '127.0.0.0/8',
    HOST: '127.0.0.1',
    RELAY_NAMESPACE: namespace,
    LOG_LEVEL: 'warn',
    RESENDS_PER_MINUTE: '100000',
  };
  const receiver = http.createServer((req, res) => req.resume().on('end', () => res.end('ok')));
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', () => resolve(undefined)));
  const receiverPort = /** @type {import('node:net').AddressInfo} */ (receiver.address()).port;
  /** @type {Record<string, import('./lib').BenchProcess>} */
  const procs = {};
  try {
    for (const s of SERVICES) {
      const health = s.name === 'ingest-gateway' ? { HEALTH_PORT: String(gatewayHealth) } : {};
      procs[s.name] = startProcess(path.join(ROOT, 'services', s.program ?? s.name, 'dist', 'main.js'), {
        ...env,
        ...s.env,
        ...health,
        [s.portVar]: String(ports[s.name]),
      });
    }
    for (const s of SERVICES)
      await waitReady(
        `http://127.0.0.1:${s.name === 'ingest-gateway' ? gatewayHealth : ports[s.name]}/readyz`,
        procs[s.name],
        60000,
      );
    const boot = JSON.parse(
      (
        await runToCompletion(path.join(ROOT, 'services/management-api/dist/bootstrap.js'), ['--account', 'bench'], env)
      ).trim(),
    );
    /** @type {(p: string, method?: string, body?: unknown) => Promise<{ status: number; text: string }>} */
    const api = async (p, method = 'GET', body = undefined) => {
      const res = await fetch(`http://127.0.0.1:${ports['management-api']}${p}`, {
        method,
        headers: { authorization: `Bearer ${boot.api_key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    };
    const endpoint = JSON.parse((await api('/v1/endpoints', 'POST', { name: 'resent' })).text);
    for (let i = 0; i < TARGETS; i++)
      await api(`/v1/endpoints/${endpoint.id}/targets`, 'POST', {
        kind: 'webhook',
        name: `r${i}`,
        config: { url: `http://127.0.0.1:${receiverPort}/t${i}`, enforce_https: false },
      });
    const sent = await fetch(`http://127.0.0.1:${ports['ingest-gateway']}/relay/${endpoint.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"order":1}',
    });
    const eventId = sent.headers.get('x-relay-event-id');

    let accepted = 0;
    // the row once every delivery made so far reported delivered (bounded: 60 s)
    const settledRow = async () => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const res = await api(`/v1/activity/${eventId}`);
        const row = res.status === 200 ? JSON.parse(res.text) : null;
        if (
          row &&
          row.deliveries.length === TARGETS * (1 + accepted) &&
          row.deliveries.every((/** @type {{ state: string }} */ d) => d.state === 'delivered')
        )
          return res.text;
        if (Date.now() > deadline) throw new Error(`the row did not settle at ${TARGETS * (1 + accepted)} deliveries`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await settledRow();
    const checkpoints = [10, 100, RESENDS].filter((n, i, all) => n <= RESENDS && all.indexOf(n) === i);
    /** @type {object[]} */
    const results = [];
    /** @type {number[]} */
    let resendTimes = [];
    /** @type {Record<string, number>} */
    const codes = {};
    for (let n = 1; n <= RESENDS; n++) {
      let t = performance.now();
      let res = await api(`/v1/activity/${eventId}/resend`, 'POST');
      // the payload travels apart from the row: "not yet" (documented) is asked again, untimed
      while (res.status === 409 && JSON.parse(res.text).code === 'payload_not_stored') {
        await new Promise((r) => setTimeout(r, 200));
        t = performance.now();
        res = await api(`/v1/activity/${eventId}/resend`, 'POST');
      }
      resendTimes.push(ms(t));
      const code = res.status === 202 ? '202' : `${res.status} ${JSON.parse(res.text).code}`;
      codes[code] = (codes[code] ?? 0) + 1;
      if (res.status === 202) accepted += 1;
      if (checkpoints.includes(n)) {
        const text = await settledRow();
        /** @type {number[]} */
        const reads = [];
        for (let k = 0; k < 10; k++) {
          const r0 = performance.now();
          await api(`/v1/activity/${eventId}`);
          reads.push(ms(r0));
        }
        const row = {
          resends: n,
          accepted_resends: accepted,
          deliveries: TARGETS * (1 + accepted),
          row_bytes: Buffer.byteLength(text),
          read_p50_ms: median(reads),
          resend_p50_ms: median(resendTimes),
        };
        results.push(row);
        process.stdout.write(
          `after ${n} resends: ${row.deliveries} deliveries, row ${row.row_bytes} bytes, read p50 ${row.read_p50_ms} ms, resend p50 ${row.resend_p50_ms} ms (since the last line)\n`,
        );
        resendTimes = [];
      }
    }
    const report = {
      bench: 'resend',
      at: new Date().toISOString(),
      targets: TARGETS,
      resends: RESENDS,
      answers: codes,
      checkpoints: results,
    };
    process.stdout.write(`${JSON.stringify(report)}\n`);
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    fs.writeFileSync(path.join(RESULTS_DIR, 'resend.json'), `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await Promise.all(Object.values(procs).map((p) => stopProcess(p)));
    receiver.close();
    const { connectStore } = require('../libs/store/dist');
    const store = await connectStore(mongo.toString());
    await store.connection.dropDatabase().catch(() => undefined);
    await store.close();
    await deleteBrokerNamespace(rabbitmqUrl, namespace).catch(() => undefined);
  }
}

main().catch((err) => {
  process.stderr.write(`bench/resend failed: ${err.stack || err}\n`);
  process.exitCode = 1;
});
