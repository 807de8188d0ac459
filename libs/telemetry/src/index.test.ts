import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import {
  batchSpanOptions,
  batchTraceHeaders,
  contextFrom,
  currentTraceparent,
  flushTracing,
  inSpan,
  inSyncSpan,
  isTracing,
  linkFrom,
  startTracing,
  stopTracing,
  traceHeaders,
  tracingEnabled,
  withTraceHeaders,
} from './index';

describe('telemetry', () => {
  afterEach(() => stopTracing());

  it('is off unless an OTLP endpoint is set, and off costs nothing', async () => {
    expect(tracingEnabled({})).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(startTracing('gateway', { env: {} })).toBe(false);
    expect(isTracing()).toBe(false);
    expect(await inSpan('x', async (span) => span)).toBeNull();
    expect(traceHeaders()).toBeUndefined();
    const headers = { 'x-relay-attempt': 2 };
    expect(withTraceHeaders(headers)).toBe(headers);
    expect(contextFrom({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' })).toBeUndefined();
    // off, a synchronous step is called as it is, and what describes it is never called
    const describe = jest.fn(() => ({}));
    expect(inSyncSpan('step', sum3, 1, 2, 3, describe)).toBe(6);
    expect(describe).not.toHaveBeenCalled();
  });

  it('puts a synchronous step in a span of its own, a child of the active one, described by its result', async () => {
    const exporter = new InMemorySpanExporter();
    startTracing('relay-test', { exporter });
    await inSpan('ingest', async () => {
      expect(inSyncSpan('sender auth', sum3, 1, 2, 3, (total, a) => ({ 'relay.total': total, 'relay.first': a }))).toBe(
        6,
      );
      expect(() =>
        inSyncSpan(
          'parse',
          () => {
            throw new Error('bad input');
          },
          0,
          0,
          0,
          () => ({ never: true }),
        ),
      ).toThrow('bad input');
    });
    await flushTracing();
    const byName = new Map(exporter.getFinishedSpans().map((s) => [s.name, s]));
    const ingest = byName.get('ingest')!.spanContext().spanId;
    expect(byName.get('sender auth')!.parentSpanContext?.spanId).toBe(ingest);
    expect(byName.get('sender auth')!.attributes).toEqual({ 'relay.total': 6, 'relay.first': 1 });
    expect(byName.get('parse')!.parentSpanContext?.spanId).toBe(ingest);
    expect(byName.get('parse')!.status).toMatchObject({ code: 2, message: 'bad input' });
    expect(byName.get('parse')!.attributes).toEqual({});
  });

  it('carries one trace from a publish through the message headers to the consumer', async () => {
    const exporter = new InMemorySpanExporter();
    startTracing('relay-test', { exporter });
    let headers: Record<string, unknown> | undefined;
    await inSpan('ingest', () =>
      inSpan('publish', async () => {
        headers = withTraceHeaders({ 'x-other': 'kept' });
      }),
    );
    expect(headers).toMatchObject({
      'x-other': 'kept',
      traceparent: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/),
    });
    // amqplib hands header strings back as strings, longer ones sometimes as Buffers
    const received = { ...headers, traceparent: Buffer.from(String(headers!.traceparent), 'latin1') };
    await inSpan('delivery attempt', async () => undefined, { parent: contextFrom(received) });
    await flushTracing();
    const spans = exporter.getFinishedSpans();
    const byName = new Map(spans.map((s) => [s.name, s]));
    const traceId = byName.get('ingest')!.spanContext().traceId;
    expect(spans.map((s) => s.spanContext().traceId)).toEqual([traceId, traceId, traceId]);
    expect(byName.get('publish')!.parentSpanContext?.spanId).toBe(byName.get('ingest')!.spanContext().spanId);
    expect(byName.get('delivery attempt')!.parentSpanContext?.spanId).toBe(byName.get('publish')!.spanContext().spanId);
    expect(byName.get('ingest')!.resource.attributes['service.name']).toBe('relay-test');
  });

  it("links a sender's traceparent instead of continuing its trace", async () => {
    const exporter = new InMemorySpanExporter();
    startTracing('relay-test', { exporter });
    const sender = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await inSpan('ingest', async () => undefined, { links: linkFrom({ traceparent: sender }) });
    expect(linkFrom({ traceparent: 'garbage' })).toBeUndefined();
    expect(linkFrom(undefined)).toBeUndefined();
    await flushTracing();
    const [span] = exporter.getFinishedSpans();
    expect(span!.spanContext().traceId).not.toBe('0af7651916cd43dd8448eb211c80319c');
    expect(span!.parentSpanContext).toBeUndefined();
    expect(span!.links.map((l) => l.context.traceId)).toEqual(['0af7651916cd43dd8448eb211c80319c']);
  });

  it('marks a span whose work threw, and rethrows', async () => {
    const exporter = new InMemorySpanExporter();
    startTracing('relay-test', { exporter });
    await expect(
      inSpan('fails', async () => {
        throw new Error('broker down');
      }),
    ).rejects.toThrow('broker down');
    await flushTracing();
    expect(exporter.getFinishedSpans()[0]!.status).toMatchObject({ code: 2, message: 'broker down' });
  });

  it("puts a batch consumer's span in its first record's trace, linked to the others'", async () => {
    const exporter = new InMemorySpanExporter();
    startTracing('relay-test', { exporter });
    const parents: (string | undefined)[] = [];
    for (let i = 0; i < 3; i += 1)
      await inSpan(`event ${i}`, async () => {
        parents.push(currentTraceparent());
      });
    parents.push(undefined, parents[0]);
    const headers = batchTraceHeaders(parents)!;
    expect(headers.traceparent).toBe(parents[0]);
    expect(headers['x-relay-trace-links']!.split(',')).toEqual([parents[1], parents[2]]);
    expect(batchTraceHeaders([undefined])).toBeUndefined();
    await inSpan('activity write', async () => undefined, batchSpanOptions(headers));
    await flushTracing();
    const spans = exporter.getFinishedSpans();
    const write = spans.find((s) => s.name === 'activity write')!;
    const ids = ['event 0', 'event 1', 'event 2'].map((n) => spans.find((s) => s.name === n)!.spanContext().traceId);
    expect(write.spanContext().traceId).toBe(ids[0]);
    expect(write.links.map((l) => l.context.traceId)).toEqual([ids[1], ids[2]]);
  });
});

function sum3(a: number, b: number, c: number): number {
  return a + b + c;
}
