import { context, propagation, trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { Attributes, Context, Link, Span, Tracer } from '@opentelemetry/api';
import type * as ContextAsyncHooks from '@opentelemetry/context-async-hooks';
import type * as OtelCore from '@opentelemetry/core';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as OtelResources from '@opentelemetry/resources';
import type * as SdkTraceBase from '@opentelemetry/sdk-trace-base';
import type { BasicTracerProvider, SpanExporter } from '@opentelemetry/sdk-trace-base';

export { SpanKind };
export type { Attributes };

/**
 * Traces across the services (docs/observability.md "Traces"): off unless an OTLP endpoint is
 * set (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, and
 * `OTEL_SDK_DISABLED` is not `true`). Off, every helper here is one boolean test: no span
 * objects, no context manager, no header written.
 *
 * Spans are made explicitly at the places that matter (gateway steps, the broker publish, each
 * delivery attempt, the activity write), not by auto-instrumentation, which would wrap every
 * Redis command and HTTP socket of the hot path.
 */
/** The standard variables Relay's tracing reads (the OTLP exporter reads its other OTEL_EXPORTER_OTLP_* itself). */
export const TRACING_ENV = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_SDK_DISABLED',
  'OTEL_SERVICE_NAME',
] as const;

let tracer: Tracer | null = null;
let provider: BasicTracerProvider | null = null;

export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').toLowerCase() === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Starts tracing for one service if the environment asks for it; returns whether it did. The
 * exporter reads the standard OTEL_EXPORTER_OTLP_* variables itself (endpoint, headers, timeout);
 * OTEL_SERVICE_NAME overrides `serviceName`. `exporter` is for tests that read spans in memory.
 */
export function startTracing(
  serviceName: string,
  opts: { env?: NodeJS.ProcessEnv; exporter?: SpanExporter } = {},
): boolean {
  const env = opts.env ?? process.env;
  if (tracer) return true;
  if (!opts.exporter && !tracingEnabled(env)) return false;
  // the SDK is loaded only where tracing is on: most deployments never turn it on, and it is a
  // tenth of a second of every process's start (and of every test file's)
  const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks') as typeof ContextAsyncHooks;
  const { W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof OtelCore;
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp;
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof OtelResources;
  const { BasicTracerProvider, BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof SdkTraceBase;
  provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || serviceName }),
    // bounded: at most 2048 spans queued for export, the oldest dropped beyond (the SDK's default)
    spanProcessors: [new BatchSpanProcessor(opts.exporter ?? new OTLPTraceExporter())],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  tracer = trace.getTracer('relay');
  return true;
}

/** Exports what is queued now (tests read the exporter after it). */
export async function flushTracing(): Promise<void> {
  await provider?.forceFlush();
}

/** Exports what is queued and stops; on shutdown, after the last span. */
export async function stopTracing(): Promise<void> {
  const p = provider;
  provider = null;
  tracer = null;
  if (!p) return;
  await p.shutdown().catch(() => undefined);
  trace.disable();
  context.disable();
  propagation.disable();
}

export function isTracing(): boolean {
  return tracer !== null;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Record<string, string | number | boolean>;
  /** the parent, when it is not the active context (a broker message's headers) */
  parent?: Context;
  links?: Link[];
}

/**
 * Runs `fn` in a span named `name` (a child of the active span or of `opts.parent`); the span
 * ends when `fn` settles, with an error status if it threw. Tracing off: just `fn()`.
 */
export function inSpan<T>(name: string, fn: (span: Span | null) => Promise<T>, opts: SpanOptions = {}): Promise<T> {
  if (!tracer) return fn(null);
  const parent = opts.parent ?? context.active();
  const span = tracer.startSpan(name, { kind: opts.kind, attributes: opts.attributes, links: opts.links }, parent);
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await fn(span);
    } catch (err) {
      throw failed(span, err);
    } finally {
      span.end();
    }
  });
}

/** Marks `span` failed by `err` (its exception and an error status) and gives `err` back to rethrow. */
function failed(span: Span, err: unknown): unknown {
  span.recordException(err as Error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
  return err;
}

/**
 * Runs the synchronous step `step(a, b, c)` in a span named `name`, a child of the active span,
 * and puts `describe(result, a, b, c)` on it (what the step decided: never a secret, header or
 * body). Tracing off: just `step(a, b, c)`. The step, its three arguments and `describe` are
 * passed apart, not as a closure, so that off no function, array or object is made per call
 * (declare `step` and `describe` once, at module level).
 */
export function inSyncSpan<A, B, C, R>(
  name: string,
  step: (a: A, b: B, c: C) => R,
  a: A,
  b: B,
  c: C,
  describe: (result: R, a: A, b: B, c: C) => Attributes,
): R {
  if (!tracer) return step(a, b, c);
  const parent = context.active();
  const span = tracer.startSpan(name, undefined, parent);
  try {
    const result = context.with(trace.setSpan(parent, span), step, undefined, a, b, c);
    span.setAttributes(describe(result, a, b, c));
    return result;
  } catch (err) {
    throw failed(span, err);
  } finally {
    span.end();
  }
}

/** The active trace as AMQP/HTTP headers (`traceparent`, `tracestate`), or undefined when off. */
export function traceHeaders(): Record<string, string> | undefined {
  if (!tracer) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : undefined;
}

/** Adds the active trace's headers to `headers` (a new object; `headers` is not changed). */
export function withTraceHeaders(headers: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const t = traceHeaders();
  return t ? { ...headers, ...t } : headers;
}

/** A context whose parent is the trace in `headers` (a broker message's), root if none. */
export function contextFrom(headers: Record<string, unknown> | undefined): Context | undefined {
  if (!tracer || !headers) return undefined;
  const carrier: Record<string, string> = {};
  for (const name of ['traceparent', 'tracestate']) {
    const v = headers[name];
    if (typeof v === 'string') carrier[name] = v;
    else if (Buffer.isBuffer(v)) carrier[name] = v.toString('latin1');
  }
  return carrier.traceparent ? propagation.extract(context.active(), carrier) : undefined;
}

/**
 * A link to a sender's trace (its request's `traceparent`), not a parent: the gateway starts a
 * trace of its own for each event (docs/observability.md "Traces"), so a sender cannot choose
 * Relay's trace ids nor make Relay's spans part of a trace it samples out.
 */
export function linkFrom(headers: Record<string, unknown> | undefined): Link[] | undefined {
  const parent = contextFrom(headers);
  const sc = parent && trace.getSpanContext(parent);
  return sc && trace.isSpanContextValid(sc) ? [{ context: sc, attributes: { 'relay.link': 'sender' } }] : undefined;
}

/** Wraps each named async method of `target` in a span of that name (tracing on only). */
export function tracedMethods<T extends object>(target: T, spans: Partial<Record<keyof T, string>>): T {
  if (!tracer) return target;
  const out = Object.create(target) as T;
  for (const [method, name] of Object.entries(spans) as [keyof T & string, string][]) {
    const fn = target[method];
    if (typeof fn !== 'function') continue;
    (out as Record<string, unknown>)[method] = (...args: unknown[]) =>
      inSpan(name, () => Promise.resolve((fn as (...a: unknown[]) => unknown).apply(target, args)));
  }
  return out;
}

/** Most links one batch message carries (its other records' traces): the activity batch's size. */
const MAX_BATCH_LINKS = 100;

/** The active trace's traceparent, for a record that travels in a batch; undefined when off. */
export function currentTraceparent(): string | undefined {
  return tracer ? traceHeaders()?.traceparent : undefined;
}

/**
 * Headers for a batch of records from many traces: `traceparent` is the first traced record's,
 * `x-relay-trace-links` the others' (comma-separated, at most MAX_BATCH_LINKS). The consumer's
 * span is a child of the first and links to the rest (batchSpanOptions).
 */
export function batchTraceHeaders(parents: readonly (string | undefined)[]): Record<string, string> | undefined {
  if (!tracer) return undefined;
  const traced = [...new Set(parents.filter((p): p is string => p !== undefined))];
  if (traced.length === 0) return undefined;
  const [first, ...rest] = traced;
  return rest.length > 0
    ? { traceparent: first!, 'x-relay-trace-links': rest.slice(0, MAX_BATCH_LINKS).join(',') }
    : { traceparent: first! };
}

/** The parent and links of a span that handles a batch message (batchTraceHeaders). */
export function batchSpanOptions(headers: Record<string, unknown> | undefined): SpanOptions {
  if (!tracer || !headers) return {};
  const raw = headers['x-relay-trace-links'];
  const more = typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw.toString('latin1') : '';
  const links = more
    .split(',')
    .slice(0, MAX_BATCH_LINKS)
    .flatMap((traceparent) => linkFrom({ traceparent }) ?? []);
  return { parent: contextFrom(headers), links };
}
