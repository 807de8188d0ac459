import { spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { must } from '@relay/client';
import { eventually } from '../support/infra';
import { TestReceiver } from '../support/receiver';
import { freePort } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * One trace per event across the services, read back from a real trace
 * backend — Jaeger v2 (built from the Go module proxy by `scripts/infra.sh tools` into
 * .infra/bin/jaeger), in-memory storage, its OTLP/HTTP receiver and query API on free loopback
 * ports. The services export to it by the standard OTEL_EXPORTER_OTLP_ENDPOINT variable.
 */
const JAEGER = path.resolve(__dirname, '../../.infra/bin/jaeger');

interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  processID: string;
  references: { refType: string; traceID: string; spanID: string }[];
  tags: { key: string; value: unknown }[];
}
interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

let jaeger: ChildProcess | undefined;
let dir: string;
let queryUrl: string;
let otlpUrl: string;
let stack: Stack;
let receiver: TestReceiver;

async function startJaeger(): Promise<void> {
  if (!existsSync(JAEGER))
    throw new Error(
      `${JAEGER} is missing: run \`bash scripts/infra.sh tools\` (it builds Jaeger v2 from the Go module proxy)`,
    );
  const [otlp, query, grpc] = [await freePort(), await freePort(), await freePort()];
  dir = mkdtempSync(path.join(tmpdir(), 'relay-jaeger-'));
  const config = {
    service: {
      extensions: ['jaeger_storage', 'jaeger_query'],
      pipelines: { traces: { receivers: ['otlp'], processors: ['batch'], exporters: ['jaeger_storage_exporter'] } },
      telemetry: { metrics: { level: 'none' }, logs: { level: 'warn' } },
    },
    extensions: {
      jaeger_query: {
        storage: { traces: 'memstore' },
        http: { endpoint: `127.0.0.1:${query}` },
        grpc: { endpoint: `127.0.0.1:${grpc}` },
      },
      jaeger_storage: { backends: { memstore: { memory: { max_traces: 10000 } } } },
    },
    receivers: { otlp: { protocols: { http: { endpoint: `127.0.0.1:${otlp}` } } } },
    processors: { batch: { timeout: '100ms' } },
    exporters: { jaeger_storage_exporter: { trace_storage: 'memstore' } },
  };
  writeFileSync(path.join(dir, 'config.yaml'), stringify(config));
  jaeger = spawn(JAEGER, ['--config', `file:${path.join(dir, 'config.yaml')}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  jaeger.stderr!.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
  queryUrl = `http://127.0.0.1:${query}`;
  otlpUrl = `http://127.0.0.1:${otlp}`;
  await eventually(
    async () => {
      if (jaeger!.exitCode !== null) throw new Error(`jaeger exited (${jaeger!.exitCode}): ${stderr}`);
      return fetch(`${queryUrl}/api/services`).then(
        (r) => r.ok,
        () => false,
      );
    },
    30000,
    'jaeger answering its query API',
  );
}

/** The trace whose spans carry these tags (Jaeger matches them on any span of the trace). */
async function traceOf(eventId: string): Promise<JaegerTrace | undefined> {
  return traceTagged({ 'relay.event_id': eventId });
}

async function traceTagged(want: Record<string, string>): Promise<JaegerTrace | undefined> {
  const tags = encodeURIComponent(JSON.stringify(want));
  const found = (await (await fetch(`${queryUrl}/api/traces?service=ingest-gateway&tags=${tags}&limit=5`)).json()) as {
    data: JaegerTrace[] | null;
  };
  const id = found.data?.[0]?.traceID;
  if (!id) return undefined;
  const full = (await (await fetch(`${queryUrl}/api/traces/${id}`)).json()) as { data: JaegerTrace[] };
  return full.data[0];
}

beforeAll(async () => {
  await startJaeger();
  receiver = await TestReceiver.start();
  // the standard variables; a short batch delay so the spans reach Jaeger soon after the event
  const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl, OTEL_BSP_SCHEDULE_DELAY: '200' };
  // private: the services export traces to this file's Jaeger
  stack = await startStack('tracing', {
    overrides: { 'ingest-gateway': otel, 'webhook-deliverer': otel, 'activity-writer': otel },
  });
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
  if (jaeger && jaeger.exitCode === null) {
    // its traces are in memory, nothing to keep: SIGTERM would wait out a 10 s shutdown
    const exited = new Promise((resolve) => jaeger!.once('exit', resolve));
    jaeger.kill('SIGKILL');
    await exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const tagsOf = (span: JaegerSpan): Record<string, unknown> =>
  Object.fromEntries(span.tags.filter((t) => t.key.startsWith('relay.')).map((t) => [t.key, t.value]));
const spanNamed = (trace: JaegerTrace, name: string): JaegerSpan => {
  const span = trace.spans.find((s) => s.operationName === name);
  if (!span) throw new Error(`no '${name}' span in ${trace.spans.map((s) => s.operationName).join(', ')}`);
  return span;
};
const childOf = (parent: JaegerSpan) =>
  expect.arrayContaining([expect.objectContaining({ refType: 'CHILD_OF', spanID: parent.spanID })]);

/** The secret the traced endpoint's GitHub preset checks: no span may carry it, nor a signature or a body. */
const GITHUB_SECRET = `trace-secret-${randomUUID()}`;
const githubSignature = (body: string, secret = GITHUB_SECRET): string =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('traces (OpenTelemetry, exported by OTLP to a real Jaeger)', () => {
  let endpointId: string;
  const send = (body: string, signature: string) =>
    fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'push',
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': signature,
      },
      body,
    });

  it("puts one event's gateway steps, delivery attempt and activity write in one trace, linked to the sender's", async () => {
    const endpoint = await must(
      stack.client.POST('/v1/endpoints', {
        body: { name: 'traced', inbound_auth: { type: 'HMAC', preset: 'github', secrets: [GITHUB_SECRET] } },
      }),
    );
    endpointId = endpoint.id;
    await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId: endpoint.id } },
        body: { kind: 'webhook', name: 'receiver', config: { url: receiver.url('/hook'), enforce_https: false } },
      }),
    );
    const senderTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const body = '{"traced":"body-text-never-on-a-span"}';
    const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpoint.id}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'push',
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': githubSignature(body),
        traceparent: `00-${senderTrace}-00f067aa0ba902b7-01`,
      },
      body,
    });
    expect(res.status).toBe(202);
    const eventId = res.headers.get('x-relay-event-id')!;
    const [delivered] = await receiver.waitForRequests(1, 15000);
    expect(delivered!.headers['x-relay-event-id']).toBe(eventId);

    const services = (t: JaegerTrace): Set<string> =>
      new Set(t.spans.map((s) => t.processes[s.processID]!.serviceName));
    const trace = await eventually(
      async () => {
        const t = await traceOf(eventId);
        const names = t && t.spans.map((s) => s.operationName);
        return t && services(t).size >= 3 && names!.includes('activity write') ? t : undefined;
      },
      30000,
      'a trace with spans from the gateway, the deliverer and the activity writer',
    );

    expect([...services(trace)].sort()).toEqual(['activity-writer', 'ingest-gateway', 'webhook-deliverer']);
    const byName = (name: string): JaegerSpan => spanNamed(trace, name);
    const ingest = byName('ingest');
    for (const step of ['endpoint lookup', 'sender auth', 'parse and validate', 'limits', 'publish deliveries'])
      expect(byName(step).references).toEqual(childOf(ingest));
    // the steps name their outcome, the scheme and the format; nothing of the request itself
    expect(tagsOf(byName('sender auth'))).toEqual({
      'relay.auth.type': 'HMAC',
      'relay.auth.preset': 'github',
      'relay.outcome': 'passed',
    });
    expect(tagsOf(byName('parse and validate'))).toEqual({ 'relay.payload_format': 'json', 'relay.outcome': 'valid' });
    const everything = JSON.stringify(trace);
    for (const secret of [GITHUB_SECRET, githubSignature(body), 'body-text-never-on-a-span'])
      expect(everything).not.toContain(secret);
    // the delivery attempt is a child of the publish whose message carried the traceparent
    expect(byName('delivery attempt').references).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ refType: 'CHILD_OF', spanID: byName('publish deliveries').spanID }),
      ]),
    );
    expect(byName('activity write').traceID).toBe(ingest.traceID);
    // the sender's trace is linked, not continued: Relay's trace is its own
    expect(trace.traceID).not.toBe(senderTrace);
    expect(ingest.references.filter((r) => r.refType === 'CHILD_OF')).toEqual([]);
    expect(ingest.references).toEqual(expect.arrayContaining([expect.objectContaining({ traceID: senderTrace })]));
  });

  it("names a refused step's outcome on its span: a wrong signature in `sender auth`, a malformed body in `parse and validate`", async () => {
    expect(endpointId).toBeDefined();
    const forged = await send('{"forged":true}', githubSignature('{"forged":true}', 'not-the-secret'));
    expect(forged.status).toBe(401);
    const malformed = '{"unclosed":';
    const bad = await send(malformed, githubSignature(malformed));
    expect(bad.status).toBe(400);
    const badCode = ((await bad.json()) as { code: string }).code;

    const refused = await eventually(
      () => traceTagged({ 'relay.outcome': 'auth_failed' }),
      30000,
      'the trace of the forged request',
    );
    expect(tagsOf(spanNamed(refused, 'sender auth'))).toEqual({
      'relay.auth.type': 'HMAC',
      'relay.auth.preset': 'github',
      'relay.outcome': 'auth_failed',
    });
    expect(spanNamed(refused, 'sender auth').references).toEqual(childOf(spanNamed(refused, 'ingest')));
    // refused before the payload: no later step ran
    expect(refused.spans.map((s) => s.operationName)).not.toContain('parse and validate');

    const invalid = await eventually(
      () => traceTagged({ 'relay.outcome': badCode }),
      30000,
      'the trace of the malformed request',
    );
    expect(tagsOf(spanNamed(invalid, 'sender auth'))['relay.outcome']).toBe('passed');
    expect(tagsOf(spanNamed(invalid, 'parse and validate'))).toEqual({
      'relay.payload_format': 'json',
      'relay.outcome': badCode,
    });
    expect(spanNamed(invalid, 'parse and validate').references).toEqual(childOf(spanNamed(invalid, 'ingest')));
    expect(invalid.spans.map((s) => s.operationName)).not.toContain('publish deliveries');
    expect(JSON.stringify([refused, invalid])).not.toContain(GITHUB_SECRET);
  });
});
