import { must } from '@relay/client';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { activityQueuesOf, deliveryQueuesOf } from '@relay/broker';
import { brokerNames, ORDERED_PARTITIONS } from '@relay/contracts';
import { defaultRetryTiers } from '../../services/deliverer/src/retry/tiers';
import { eventually } from '../support/infra';
import { TestReceiver } from '../support/receiver';
import { freePort, startService } from '../support/services';
import type { RunningService, ServiceName } from '../support/services';
import {
  PROMETHEUS_OWN_SERIES,
  RULES_DIR,
  dashboardExprs,
  exportedNames,
  loadPrometheusConfig,
  loadRules,
  metricNamesIn,
} from '../unit/deploy/observability';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * "Real parts": a real Prometheus (Debian's binary, installed by `scripts/infra.sh
 * up`) scrapes the running services with deploy/observability's scrape jobs and rules — only
 * the targets (loopback ports instead of compose names) and the intervals (1 s) are changed —
 * and the test asks its HTTP API for the queue-depth and activity-lag series and the alerts.
 * It runs with its own config and data in a temp dir, on a free loopback port, under
 * `timeout` so it cannot outlive the run, and is stopped when the file ends.
 */
const SERVICES: ServiceName[] = [
  'management-api',
  'ingest-gateway',
  'webhook-deliverer',
  'chat-deliverer',
  'activity-writer',
];
/** The deploy config's job for the outputs deliverer: the deliverer program on the outputs channel. */
const OUTPUTS_JOB = 'outputs-deliverer';
/** Every scrape job of deploy/observability, each a running process here. */
const JOBS = [...SERVICES, OUTPUTS_JOB];
/** Prometheus' own run bound: far above this file's needs, so only a crashed test run reaches it. */
const PROMETHEUS_MAX_RUN_S = 600;

interface Prometheus {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** The deploy config with the running stack's health ports as static targets, scraped and evaluated every second. */
function configFor(): string {
  const config = loadPrometheusConfig();
  const scrapeConfigs = config.scrape_configs.map(({ dns_sd_configs: _byDns, ...job }) => {
    const svc = running()[job.job_name];
    if (!svc) throw new Error(`scrape job ${job.job_name} names no running service`);
    return { ...job, static_configs: [{ targets: [new URL(svc.healthUrl).host] }] };
  });
  return stringify({
    ...config,
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
    rule_files: [path.join(RULES_DIR, '*.yml')],
    scrape_configs: scrapeConfigs,
  });
}

async function startPrometheus(): Promise<Prometheus> {
  const dir = mkdtempSync(path.join(tmpdir(), 'relay-prometheus-'));
  const configFile = path.join(dir, 'prometheus.yml');
  writeFileSync(configFile, configFor());
  const port = await freePort();
  const args = [
    `--signal=TERM`,
    `--kill-after=5`,
    String(PROMETHEUS_MAX_RUN_S),
    'prometheus',
    `--config.file=${configFile}`,
    `--storage.tsdb.path=${path.join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--log.level=warn',
  ];
  const child: ChildProcess = spawn('timeout', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const prometheus: Prometheus = {
    url: `http://127.0.0.1:${port}`,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 10000);
        await exited;
        clearTimeout(killer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}`);
        return (await fetch(`${prometheus.url}/-/ready`)).status === 200;
      },
      30000,
      'prometheus to be ready',
    );
  } catch (err) {
    await prometheus.stop();
    throw new Error(`${(err as Error).message}\n--- prometheus output ---\n${out}`);
  }
  return prometheus;
}

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}
async function query(prometheus: Prometheus, promql: string): Promise<Sample[]> {
  const res = await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await res.json()) as { status: string; data: { result: Sample[] }; error?: string };
  if (body.status !== 'success') throw new Error(`query ${promql} failed: ${body.error}`);
  return body.data.result;
}

interface ActiveAlert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
}
async function alerts(prometheus: Prometheus): Promise<ActiveAlert[]> {
  const body = (await (await fetch(`${prometheus.url}/api/v1/alerts`)).json()) as { data: { alerts: ActiveAlert[] } };
  return body.data.alerts;
}

let stack: Stack;
let outputs: RunningService;
let receiver: TestReceiver;
let prometheus: Prometheus;

/** The process behind each scrape job. */
const running = (): Record<string, RunningService | undefined> => ({ ...stack.services, [OUTPUTS_JOB]: outputs });

beforeAll(async () => {
  receiver = await TestReceiver.start();
  // private: Prometheus scrapes every process of the stack
  stack = await startStack('prometheus', { only: SERVICES });
  outputs = await startService(OUTPUTS_JOB, stack.env);
  prometheus = await startPrometheus();
});

afterAll(async () => {
  await prometheus?.stop();
  await outputs?.stop();
  await stack?.stop();
  await receiver?.close();
});

describe('a real Prometheus scraping the running services with deploy/observability', () => {
  it("scrapes every service on its health port under the deploy config's job names", async () => {
    const up = await eventually(
      async () => {
        const samples = await query(prometheus, 'up');
        return samples.length === JOBS.length && samples.every((s) => s.value[1] === '1') ? samples : undefined;
      },
      20000,
      'every target up',
    );
    expect(up.map((s) => s.metric.job).sort()).toEqual([...JOBS].sort());
  });

  it('has the depth and consumer count of every work, retry and dead-letter queue, and the activity lag', async () => {
    const ns = stack.namespace;
    const queues = [
      ...(['webhook', 'chat', 'outputs'] as const).flatMap((channel) =>
        deliveryQueuesOf(ns, channel, defaultRetryTiers(channel)),
      ),
      ...activityQueuesOf(ns),
    ].sort();
    const depth = await eventually(
      async () => {
        const samples = await query(prometheus, 'max by (queue) (relay_queue_messages)');
        return samples.length === queues.length ? samples : undefined;
      },
      20000,
      'a depth series per queue',
    );
    expect(depth.map((s) => s.metric.queue).sort()).toEqual(queues);
    const names = brokerNames(ns);
    const consumers = await query(prometheus, 'max by (queue) (relay_queue_consumers)');
    const consuming = consumers
      .filter((s) => Number(s.value[1]) >= 1)
      .map((s) => s.metric.queue)
      .sort();
    // the writer consumes the activity partitions (and the queue of before them) and stored payloads (for resends);
    // the webhook deliverer its work queue and the ordered partitions (docs/ordering.md)
    expect(consuming).toEqual(
      [
        names.activityQueue,
        ...names.activityPartitionQueues,
        names.payloadQueue,
        names.deliveryQueue('chat'),
        names.deliveryQueue('outputs'),
        names.deliveryQueue('webhook'),
        ...Array.from({ length: ORDERED_PARTITIONS }, (_, k) => names.orderedQueue('webhook', k)),
      ].sort(),
    );

    const lag = await query(prometheus, 'relay_activity_lag_seconds');
    expect(lag.map((s) => s.metric.job)).toEqual(['activity-writer']);
    expect(Number(lag[0]!.value[1])).toBeGreaterThanOrEqual(0);
    const brokers = await query(prometheus, 'relay_broker_connected');
    expect(brokers.map((s) => `${s.metric.job}=${s.value[1]}`).sort()).toEqual([
      'activity-writer=1',
      'chat-deliverer=1',
      'ingest-gateway=1',
      'outputs-deliverer=1',
      'webhook-deliverer=1',
    ]);
  });

  it('a delivery to a gone destination (410): the dead-letter depth reaches Prometheus, and the dead-letter and flagged-target alerts go active', async () => {
    // the flag counter's 0 must have been scraped first: increase() sees nothing in a series born at 1
    await eventually(
      async () =>
        (await query(prometheus, 'relay_delivery_targets_flagged_total{job="webhook-deliverer", reason="destination"}'))
          .length > 0,
      20000,
      'the flag counter at 0',
    );
    receiver.respondWith({ status: 410, body: 'gone' });
    const endpoint = await must(stack.client.POST('/v1/endpoints', { body: { name: 'gone-destination' } }));
    await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId: endpoint.id } },
        body: { kind: 'webhook', name: 'gone', config: { url: receiver.url('/gone'), enforce_https: false } },
      }),
    );
    const sent = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpoint.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"n":1}',
    });
    expect(sent.status).toBe(202);
    await receiver.waitForRequests(1, 15000);

    const dead = brokerNames(stack.namespace).deadDeliveryQueue('webhook');
    await eventually(
      async () =>
        (await query(prometheus, `max by (queue) (relay_queue_messages{queue="${dead}"})`))[0]?.value[1] === '1',
      30000,
      'dead-letter depth 1 in Prometheus',
    );

    const active = await eventually(
      async () => {
        const list = await alerts(prometheus);
        const deadLetter = list.find(
          (a) => a.labels.alertname === 'RelayDeadLetterQueueNotEmpty' && a.labels.queue === dead,
        );
        const flagged = list.find((a) => a.labels.alertname === 'RelayTargetFlagged' && a.state === 'firing');
        return deadLetter && flagged ? { deadLetter, flagged } : undefined;
      },
      30000,
      'the dead-letter and flagged-target alerts',
    );
    // RelayDeadLetterQueueNotEmpty waits 1 min before firing; pending means its expression holds
    expect(['pending', 'firing']).toContain(active.deadLetter.state);
    expect(active.flagged.labels).toMatchObject({ kind: 'webhook', reason: 'destination', severity: 'info' });
    expect(Object.keys(active.flagged.labels).sort()).toEqual(['alertname', 'kind', 'reason', 'severity']);
  });

  it('the Grafana dashboard and the alert rules reference only metrics the running services export (read from their /metrics)', async () => {
    const exported = new Set<string>();
    for (const name of JOBS) {
      const text = await (await fetch(`${running()[name]!.healthUrl}/metrics`)).text();
      exportedNames(text).forEach((n) => exported.add(n));
    }
    const rules = loadRules();
    const recorded = new Set(rules.flatMap((r) => (r.record ? [r.record] : [])));
    const referenced = [
      ...dashboardExprs().map((q) => ({ where: q.where, expr: q.expr })),
      ...rules.map((r) => ({ where: r.alert ?? r.record ?? '?', expr: r.expr })),
    ];
    const unknown = referenced.flatMap(({ where, expr }) =>
      metricNamesIn(expr)
        .filter((n) => !exported.has(n) && !recorded.has(n) && !PROMETHEUS_OWN_SERIES.includes(n))
        .map((n) => `${where}: ${n}`),
    );
    expect(unknown).toEqual([]);
    expect(referenced.length).toBeGreaterThan(40);
    expect(exported.has('relay_queue_messages')).toBe(true);
  });
});
