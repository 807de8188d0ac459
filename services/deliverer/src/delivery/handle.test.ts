import { PassThrough } from 'node:stream';
import { PASS_THROUGH } from '@relay/transform';
import type { ActivityAttemptV1, DeliveryMessageV1 } from '@relay/contracts';
import { createLogger } from '@relay/logging';
import type { TargetRecord } from '@relay/store';
import { createRegistry, PayloadError, TargetConfigError } from '@relay/targets';
import type { AttemptResult, SendOutcome, TargetKind } from '@relay/targets';
import { Registry } from 'prom-client';
import { handleDelivery } from './handle';
import { createDeliveryMetrics, registerBreakerStateGauge } from './metrics';
import type { GateVerdict, Pass, TargetGate } from '@relay/target-gate';
import type { DeadLetterReason, DeliveryDeps } from './ports';

/* The one place that decides, against in-memory fakes of its narrow interfaces. */

const NOW = new Date('2030-01-01T00:00:00.000Z');

function fakeKind(results: AttemptResult[]): TargetKind & { sent: number } {
  const kind = {
    kind: 'fake',
    channel: 'webhook' as const,
    defaultRetryScheduleMs: [1_000],
    description: { label: 'Fake', fields: {} },
    resendable: true,
    sent: 0,
    validateConfig: (c: unknown) => ({ ok: true as const, value: c }),
    publicConfig: () => ({}),
    buildRequest: () => ({ url: 'http://127.0.0.1/', headers: {}, body: Buffer.alloc(0) }),
    classify: (): AttemptResult => results[Math.min(kind.sent - 1, results.length - 1)]!,
  };
  return kind;
}

function target(over: Partial<TargetRecord> = {}): TargetRecord {
  return {
    id: 'tg_1',
    account_id: 'acc',
    endpoint_id: 'ep',
    kind: 'fake',
    name: 't',
    enabled: true,
    config: {},
    flagged: null,
    retry_schedule_ms: [200, 500],
    created_at: NOW,
    updated_at: NOW,
    ...over,
  };
}

function delivery(attempt = 1): DeliveryMessageV1 {
  return {
    type: 'relay.delivery.v1',
    event_id: 'evt_1',
    delivery_id: 'dlv_1',
    attempt,
    account_id: 'acc',
    endpoint_id: 'ep',
    target_id: 'tg_1',
    target_kind: 'fake',
    received_at: NOW.toISOString(),
    request: { method: 'POST', source_ip: '127.0.0.1', headers: {}, query: '' },
    payload: { content_type: null, body_base64: '' },
  };
}

/** An in-memory gate: answers each admit with the next verdict (then `go`), and keeps what it was told. */
function fakeGate(verdicts: GateVerdict[] = []) {
  const settled: Array<{ pass: Pass; result: string; sent: boolean }> = [];
  const gate: TargetGate = {
    admit: async () => verdicts.shift() ?? { verdict: 'go', lease: null },
    settle: async (_t, pass, outcome, sent) => void settled.push({ pass, result: outcome.result, sent }),
  };
  return { gate, settled };
}

function setup(
  results: AttemptResult[],
  t: TargetRecord | null = target(),
  flagAfter = 3,
  verdicts: GateVerdict[] = [],
) {
  const kind = fakeKind(results);
  const metrics = new Registry();
  const log = {
    recorded: [] as ActivityAttemptV1[],
    retried: [] as Array<[number, number, number]>,
    /** held copies: attempt, tier, schedule base, when the wait ends */
    held: [] as Array<[number, number, number, number]>,
    dead: [] as DeadLetterReason[],
    flags: [] as string[],
    streak: 0,
    resets: 0,
  };
  const gate = fakeGate(verdicts);
  const deps: DeliveryDeps = {
    targets: { find: async () => t },
    gate: gate.gate,
    registry: createRegistry([kind]),
    transform: PASS_THROUGH,
    send: async (): Promise<SendOutcome> => {
      kind.sent += 1;
      return { response: { status: 0, headers: {}, body: '' }, durationMs: 12.34 };
    },
    recorder: { record: async (a) => void log.recorded.push(a) },
    router: {
      retry: async (next, tierMs, base, holdUntil) =>
        void (holdUntil === undefined
          ? log.retried.push([next.attempt, tierMs, base])
          : log.held.push([next.attempt, tierMs, base, holdUntil])),
      deadLetter: async (_d, why) => void log.dead.push(why),
    },
    health: {
      flag: async (_id, reason) => {
        log.flags.push(reason);
        return true;
      },
      permanentFailure: () => ++log.streak,
      reset: () => {
        log.resets += 1;
        log.streak = 0;
      },
    },
    meter: createDeliveryMetrics(metrics),
    policy: { tiersMs: [200, 500, 1_000], jitterPct: 0, retryAfterMaxMs: 1_000, flagAfterPermanentFailures: flagAfter },
    logger: createLogger({ service: 'test', level: 'error', stream: new PassThrough() }),
    now: () => NOW,
    random: () => 0,
  };
  return { deps, log, kind, metrics, settled: gate.settled };
}

const ok: AttemptResult = { result: 'success', status: 200 };
const unavailable: AttemptResult = { result: 'retry', status: 503, error: 'HTTP 503' };
const badRequest: AttemptResult = { result: 'permanent', status: 400, error: 'HTTP 400', flagTarget: false };
const gone: AttemptResult = { result: 'permanent', status: 410, error: 'HTTP 410', flagTarget: true };

describe('handleDelivery: transformations', () => {
  const note = { versions: [{ scope: 'target' as const, version: 3 }], logs: ['[target v3] hi'] };

  it('a transformed request is what is sent; the attempt records the versions; a retry republishes the original', async () => {
    const { deps, log, kind } = setup([unavailable]);
    const built: DeliveryMessageV1[] = [];
    kind.buildRequest = (_c: unknown, d: DeliveryMessageV1) => (
      built.push(d),
      { url: 'http://127.0.0.1/', headers: {}, body: Buffer.alloc(0) }
    );
    const changed = { ...delivery(), payload: { content_type: 'text/plain', body_base64: 'aGk=' } };
    deps.transform = { apply: async () => ({ result: 'pass', delivery: changed, note }) };
    const retried: DeliveryMessageV1[] = [];
    deps.router.retry = async (next) => void retried.push(next);
    await handleDelivery(delivery(), deps);
    expect(built[0]!.payload).toEqual(changed.payload);
    expect(log.recorded[0]).toMatchObject({ state: 'retrying', transform: note });
    expect(retried[0]!.payload).toEqual(delivery().payload);
  });

  it.each([
    ['webhook', 'http://127.0.0.1/in/orders/7?token=t&kind=charge'],
    ['fake', 'http://127.0.0.1/in?token=t'],
  ])(
    'a path and query a transformation set address a webhook target’s URL, no other kind’s: %s → %s',
    async (name, url) => {
      const { deps, kind } = setup([ok], target({ kind: name }));
      kind.buildRequest = () => ({ url: 'http://127.0.0.1/in?token=t', headers: {}, body: Buffer.alloc(0) });
      deps.registry = createRegistry([{ ...kind, kind: name }]);
      const address = { path: '/orders/7', query: 'kind=charge' };
      deps.transform = { apply: async (d) => ({ result: 'pass', delivery: d, note, address }) };
      const sent: string[] = [];
      deps.send = async (request) => {
        sent.push(request.url);
        kind.sent += 1;
        return { response: { status: 200, headers: {}, body: '' }, durationMs: 1 };
      };
      await handleDelivery(delivery(), deps);
      expect(sent).toEqual([url]);
    },
  );

  it.each([
    ['transform_failed', 'TRANSFORM_FAILED: target transformation v3, line 2: Error: no'],
    ['dropped', null],
  ] as const)(
    '%s → recorded as the final state; nothing sent, retried or dead-lettered; the gate not asked',
    async (state, error) => {
      const { deps, log, kind, settled } = setup([ok]);
      deps.transform = {
        apply: async () => (state === 'dropped' ? { result: state, note } : { result: state, error: error!, note }),
      };
      expect(await handleDelivery(delivery(), deps)).toEqual({ state });
      expect(kind.sent).toBe(0);
      expect([log.retried, log.dead, settled]).toEqual([[], [], []]);
      expect(log.recorded).toEqual([
        expect.objectContaining({ state, error, status_code: null, next_attempt_at: null, transform: note }),
      ]);
    },
  );
});

describe('handleDelivery: success, retry, dead-letter and the flag', () => {
  it('2xx → records delivered; nothing is republished', async () => {
    const { deps, log } = setup([ok]);
    await handleDelivery(delivery(), deps);
    expect(log.recorded.map((a) => [a.attempt, a.state, a.status_code, a.next_attempt_at])).toEqual([
      [1, 'delivered', 200, null],
    ]);
    expect([log.retried, log.dead]).toEqual([[], []]);
    expect(log.resets).toBe(1);
  });

  it('retryable with attempts left → publishes attempt + 1 to its tier and records retrying with next_attempt_at', async () => {
    const { deps, log } = setup([unavailable]);
    await handleDelivery(delivery(2), deps);
    expect(log.retried).toEqual([[3, 500, 1]]);
    expect(log.recorded[0]).toMatchObject({
      attempt: 2,
      state: 'retrying',
      status_code: 503,
      error: 'HTTP 503',
      next_attempt_at: '2030-01-01T00:00:00.500Z',
      duration_ms: 12.3,
    });
  });

  it('retryable on the last attempt → dead-lettered as exhausted, recorded failed', async () => {
    const { deps, log } = setup([unavailable]);
    await handleDelivery(delivery(3), deps);
    expect(log.retried).toEqual([]);
    expect(log.dead).toEqual([{ reason: 'exhausted', error: 'HTTP 503', status: 503, at: NOW }]);
    expect(log.recorded[0]).toMatchObject({ state: 'failed', next_attempt_at: null });
  });

  it("a target without a schedule of its own follows its kind's declared default", async () => {
    const { deps, log } = setup([unavailable], target({ retry_schedule_ms: null }));
    await handleDelivery(delivery(1), deps);
    expect(log.retried).toEqual([[2, 1_000, 1]]);
    await handleDelivery(delivery(2), deps);
    expect(log.dead).toEqual([{ reason: 'exhausted', error: 'HTTP 503', status: 503, at: NOW }]);
  });

  it('a redriven delivery keeps its schedule base on its retries', async () => {
    const { deps, log } = setup([unavailable]);
    await handleDelivery(delivery(5), deps, { scheduleBase: 5 });
    expect(log.retried).toEqual([[6, 200, 5]]);
  });

  it('4xx permanent → dead-lettered at once and counted toward the flag', async () => {
    const { deps, log } = setup([badRequest]);
    await handleDelivery(delivery(), deps);
    expect(log.dead).toEqual([{ reason: 'permanent', error: 'HTTP 400', status: 400, at: NOW }]);
    expect(log.recorded[0]?.state).toBe('failed');
    expect([log.streak, log.flags]).toEqual([1, []]);
  });

  it('FLAG_AFTER_PERMANENT_FAILURES permanent failures in a row flag the target', async () => {
    const { deps, log } = setup([badRequest], target(), 3);
    for (let i = 0; i < 3; i++) await handleDelivery(delivery(), deps);
    expect(log.flags).toEqual(['3 permanent failures in a row; last: HTTP 400']);
  });

  it('a success in between ends the streak', async () => {
    const { deps, log } = setup([badRequest, badRequest, ok, badRequest, badRequest], target(), 3);
    for (let i = 0; i < 5; i++) await handleDelivery(delivery(), deps);
    expect([log.streak, log.flags]).toEqual([2, []]);
  });

  it('410 (the kind says the destination is gone) flags at once', async () => {
    const { deps, log } = setup([gone]);
    await handleDelivery(delivery(), deps);
    expect(log.flags).toEqual(['HTTP 410']);
    expect(log.dead).toHaveLength(1);
  });

  it('a flagged target gets no request: failed and dead-lettered for a later redrive', async () => {
    const { deps, log, kind } = setup([ok], target({ flagged: { reason: 'HTTP 410', at: NOW } }));
    await handleDelivery(delivery(), deps);
    expect(kind.sent).toBe(0);
    expect(log.recorded[0]).toMatchObject({ state: 'failed', error: 'target flagged: HTTP 410' });
    expect(log.dead).toEqual([{ reason: 'permanent', error: 'target flagged: HTTP 410', status: null, at: NOW }]);
    expect([log.streak, log.resets]).toEqual([0, 1]);
  });

  it('a deleted target: failed, not dead-lettered (nothing could deliver it)', async () => {
    const { deps, log } = setup([ok], null);
    await handleDelivery(delivery(), deps);
    expect(log.recorded[0]).toMatchObject({ state: 'failed', error: 'target deleted' });
    expect(log.dead).toEqual([]);
  });

  it('throws when the outcome could not be made durable, so the consumer requeues', async () => {
    const { deps } = setup([unavailable]);
    deps.router.retry = async () => {
      throw new Error('broker did not confirm the message: nacked');
    };
    await expect(handleDelivery(delivery(), deps)).rejects.toThrow('nacked');
  });

  it('records before it publishes the retry: a failed record publishes nothing, so a redelivery cannot start a second chain', async () => {
    const { deps, log } = setup([unavailable]);
    deps.recorder.record = async () => {
      throw new Error('confirm_timeout');
    };
    await expect(handleDelivery(delivery(), deps)).rejects.toThrow('confirm_timeout');
    expect(log.retried).toEqual([]);
  });

  it('a store failure while flagging is logged, not thrown: the outcome is already durable', async () => {
    const { deps, log } = setup([gone]);
    deps.health.flag = async () => {
      throw new Error('store down');
    };
    await expect(handleDelivery(delivery(), deps)).resolves.toEqual({ state: 'failed', reason: 'permanent' });
    expect(log.dead).toHaveLength(1);
  });

  describe('a request that cannot be built is a recorded permanent failure, never a redelivery loop', () => {
    const throwing = (err: unknown) => {
      const setupResult = setup([ok]);
      setupResult.kind.buildRequest = () => {
        throw err;
      };
      return setupResult;
    };

    it('a payload the kind cannot use (PayloadError): failed, dead-lettered, nothing sent, the target neither flagged nor counted', async () => {
      const { deps, log, kind } = throwing(
        new PayloadError('PAYLOAD_TOO_DEEP', 'the JSON payload is nested deeper than 256 levels'),
      );
      await expect(handleDelivery(delivery(), deps)).resolves.toEqual({ state: 'failed', reason: 'permanent' });
      expect(kind.sent).toBe(0);
      expect(log.recorded[0]).toMatchObject({
        state: 'failed',
        status_code: null,
        error: 'PAYLOAD_TOO_DEEP: the JSON payload is nested deeper than 256 levels',
      });
      expect(log.dead).toEqual([
        {
          reason: 'permanent',
          error: 'PAYLOAD_TOO_DEEP: the JSON payload is nested deeper than 256 levels',
          status: null,
          at: NOW,
        },
      ]);
      expect([log.flags, log.streak]).toEqual([[], 0]);
    });

    it('a stored config that cannot build a request (TargetConfigError): failed and the target flagged', async () => {
      const { deps, log } = throwing(
        new TargetConfigError('HTTPS_REQUIRED', 'target URL is not HTTPS while Enforce HTTPS is on'),
      );
      await handleDelivery(delivery(), deps);
      expect(log.recorded[0]).toMatchObject({
        state: 'failed',
        error: 'HTTPS_REQUIRED: target URL is not HTTPS while Enforce HTTPS is on',
      });
      expect(log.flags).toEqual(['HTTPS_REQUIRED: target URL is not HTTPS while Enforce HTTPS is on']);
    });

    it('any other error while building (a RangeError from JSON.stringify): failed with the error name, dead-lettered, not rethrown', async () => {
      const { deps, log } = throwing(new RangeError('Maximum call stack size exceeded'));
      await expect(handleDelivery(delivery(), deps)).resolves.toEqual({ state: 'failed', reason: 'permanent' });
      expect(log.recorded[0]).toMatchObject({
        state: 'failed',
        error: 'REQUEST_NOT_BUILT: RangeError while building the request',
      });
      expect(log.dead).toHaveLength(1);
      expect(log.flags).toEqual([]);
    });
  });
});

/** One metric's samples as `labels → value` lines, for comparing with a table. */
async function samples(registry: Registry, name: string): Promise<string[]> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  return (metric?.values ?? []).map(
    (v) => `${(v as { metricName?: string }).metricName ?? name}${JSON.stringify(v.labels)} ${v.value}`,
  );
}

describe('handleDelivery: what the target answered goes with the attempt record', () => {
  it('records the answer’s headers (credentials redacted) and the start of its body, capped', async () => {
    const { deps, log, kind } = setup([badRequest]);
    deps.send = async (): Promise<SendOutcome> => {
      kind.sent += 1;
      return {
        response: {
          status: 400,
          headers: { 'content-type': 'application/json', 'set-cookie': ['sid=secret'] },
          body: `{"error":"${'x'.repeat(5000)}"}`,
        },
        durationMs: 8,
      };
    };
    await handleDelivery(delivery(), deps);
    const response = log.recorded[0]!.response!;
    expect(response.headers).toEqual({ 'content-type': 'application/json', 'set-cookie': '[redacted]' });
    expect(response.body).toHaveLength(1024);
    expect(response.body_truncated).toBe(true);
    expect(JSON.stringify(log.recorded)).not.toContain('sid=secret');
  });

  it('sends with the kind’s `resendable`, and records the requests sent again inside the attempt', async () => {
    const { deps, log, kind } = setup([ok]);
    const asked: Array<boolean | undefined> = [];
    deps.send = async (req): Promise<SendOutcome> => {
      kind.sent += 1;
      asked.push(req.resendable);
      return { response: { status: 200, headers: {}, body: '' }, durationMs: 8, resends: 2 };
    };
    await handleDelivery(delivery(), deps);
    expect([asked, log.recorded[0]!.resends]).toEqual([[true], 2]);
    const once = setup([ok]);
    await handleDelivery(delivery(), once.deps);
    expect(once.log.recorded[0]).not.toHaveProperty('resends');
  });

  it('keeps no answer when none came: a network failure, or a target that got no request', async () => {
    const failed = setup([{ result: 'retry', status: null, error: 'ECONNREFUSED' }]);
    failed.deps.send = async (): Promise<SendOutcome> => {
      failed.kind.sent += 1;
      return { error: { code: 'ECONNREFUSED', message: 'refused' }, durationMs: 1 };
    };
    await handleDelivery(delivery(), failed.deps);
    expect(failed.log.recorded[0]).not.toHaveProperty('response');
    const flagged = setup([ok], target({ flagged: { reason: 'HTTP 410', at: NOW } }));
    await handleDelivery(delivery(), flagged.deps);
    expect(flagged.log.recorded[0]).not.toHaveProperty('response');
  });
});

describe('deliverer metrics: attempts by kind and result, latency, retries per tier, dead letters, flagged targets', () => {
  it.each([
    ['delivered', [ok], 1, target()],
    ['retrying', [unavailable], 1, target()],
    ['dead (permanent)', [badRequest], 1, target()],
    ['dead (exhausted)', [unavailable], 3, target()],
    ['failed (target deleted)', [ok], 1, null],
  ] as const)('an attempt that ends %s counts one attempt with that result', async (name, results, attempt, t) => {
    const { deps, metrics } = setup([...results], t);
    await handleDelivery(delivery(attempt), deps);
    const result = name.split(' ')[0];
    expect(await samples(metrics, 'relay_delivery_attempts_total')).toEqual([
      `relay_delivery_attempts_total{"kind":"${t ? 'fake' : 'unknown'}","result":"${result}"} 1`,
    ]);
  });

  it("a retry counts once under its tier's delay; a dead letter once under its kind and reason", async () => {
    const { deps, metrics } = setup([unavailable]);
    await handleDelivery(delivery(1), deps);
    await handleDelivery(delivery(2), deps);
    await handleDelivery(delivery(3), deps);
    expect(await samples(metrics, 'relay_delivery_retries_scheduled_total')).toEqual([
      'relay_delivery_retries_scheduled_total{"tier_ms":"200"} 1',
      'relay_delivery_retries_scheduled_total{"tier_ms":"500"} 1',
    ]);
    expect(await samples(metrics, 'relay_delivery_dead_lettered_total')).toEqual([
      'relay_delivery_dead_lettered_total{"kind":"fake","reason":"exhausted"} 1',
    ]);
  });

  it('the attempt latency histogram observes sent requests only (a flagged target sends none), by kind', async () => {
    const { deps, metrics } = setup([ok]);
    await handleDelivery(delivery(), deps);
    const flagged = setup([ok], target({ flagged: { reason: 'gone', at: NOW } }));
    // the same meter: both attempts land in one registry
    await handleDelivery(delivery(), { ...flagged.deps, meter: deps.meter });
    expect(await samples(metrics, 'relay_delivery_attempts_total')).toEqual([
      'relay_delivery_attempts_total{"kind":"fake","result":"delivered"} 1',
      'relay_delivery_attempts_total{"kind":"fake","result":"dead"} 1',
    ]);
    const count = (await samples(metrics, 'relay_delivery_attempt_duration_seconds')).filter((l) =>
      l.startsWith('relay_delivery_attempt_duration_seconds_count'),
    );
    expect(count).toEqual(['relay_delivery_attempt_duration_seconds_count{"kind":"fake"} 1']);
  });

  it('a target this deliverer flags counts once under its kind and why: destination (410) or streak (permanent failures in a row)', async () => {
    const gone410 = setup([gone]);
    await handleDelivery(delivery(), gone410.deps);
    expect(await samples(gone410.metrics, 'relay_delivery_targets_flagged_total')).toEqual([
      'relay_delivery_targets_flagged_total{"kind":"fake","reason":"destination"} 1',
    ]);
    const streak = setup([badRequest], target(), 2);
    await handleDelivery(delivery(), streak.deps);
    expect(await samples(streak.metrics, 'relay_delivery_targets_flagged_total')).toEqual([]);
    await handleDelivery(delivery(), streak.deps);
    expect(await samples(streak.metrics, 'relay_delivery_targets_flagged_total')).toEqual([
      'relay_delivery_targets_flagged_total{"kind":"fake","reason":"streak"} 1',
    ]);
  });

  it('the flag counter starts at 0 for every kind given and reason, so the first flag is an increase Prometheus sees', async () => {
    const metrics = new Registry();
    createDeliveryMetrics(metrics, ['fake', 'other']);
    expect(await samples(metrics, 'relay_delivery_targets_flagged_total')).toEqual([
      'relay_delivery_targets_flagged_total{"kind":"fake","reason":"destination"} 0',
      'relay_delivery_targets_flagged_total{"kind":"fake","reason":"streak"} 0',
      'relay_delivery_targets_flagged_total{"kind":"fake","reason":"breaker"} 0',
      'relay_delivery_targets_flagged_total{"kind":"other","reason":"destination"} 0',
      'relay_delivery_targets_flagged_total{"kind":"other","reason":"streak"} 0',
      'relay_delivery_targets_flagged_total{"kind":"other","reason":"breaker"} 0',
    ]);
  });

  it('a target another instance flagged first is not counted again here', async () => {
    const { deps, log, metrics } = setup([gone]);
    deps.health.flag = async (_id, reason) => {
      log.flags.push(reason);
      return false;
    };
    await handleDelivery(delivery(), deps);
    expect(log.flags).toEqual(['HTTP 410']);
    expect(await samples(metrics, 'relay_delivery_targets_flagged_total')).toEqual([]);
  });

  it('an attempt whose outcome could not be made durable is not counted (its redelivery will be)', async () => {
    const { deps, metrics } = setup([unavailable]);
    deps.router.retry = async () => {
      throw new Error('nacked');
    };
    await expect(handleDelivery(delivery(), deps)).rejects.toThrow('nacked');
    expect(await samples(metrics, 'relay_delivery_attempts_total')).toEqual([]);
    expect(await samples(metrics, 'relay_delivery_retries_scheduled_total')).toEqual([]);
  });
});

describe('handleDelivery: the target gate (limits and breaker, docs/delivery-limits.md)', () => {
  it('held → published again unchanged (same attempt) with the end of its wait, to the largest tier within it; nothing sent, nothing recorded', async () => {
    const { deps, log, kind, settled, metrics } = setup([ok], target(), 3, [
      { verdict: 'hold', reason: 'rate', waitMs: 350 },
    ]);
    expect(await handleDelivery(delivery(2), deps, { scheduleBase: 1 })).toEqual({
      state: 'held',
      reason: 'rate',
      tierMs: 200,
    });
    expect(log.held).toEqual([[2, 200, 1, NOW.getTime() + 350]]);
    expect([kind.sent, log.recorded, log.retried, log.dead, settled]).toEqual([0, [], [], [], []]);
    expect(await metrics.getSingleMetricAsString('relay_delivery_held_total')).toContain(
      'relay_delivery_held_total{kind="fake",reason="rate"} 1',
    );
  });

  it('a wait past every tier waits in the largest first; one shorter than every tier in the smallest', async () => {
    const { deps, log } = setup([ok], target(), 3, [
      { verdict: 'hold', reason: 'paused', waitMs: 60_000 },
      { verdict: 'hold', reason: 'rate', waitMs: 40 },
    ]);
    await handleDelivery(delivery(), deps);
    await handleDelivery(delivery(), deps);
    expect(log.held).toEqual([
      [1, 1_000, 1, NOW.getTime() + 60_000],
      [1, 200, 1, NOW.getTime() + 40],
    ]);
  });

  it('back before its wait ends → held again for the rest without asking the gate; asks once it has ended', async () => {
    const { deps, log, kind, metrics } = setup([ok]);
    let asked = 0;
    const admit = deps.gate.admit.bind(deps.gate);
    deps.gate.admit = async (t, k) => {
      asked += 1;
      return admit(t, k);
    };
    const at = NOW.getTime();
    for (const [left, tierMs] of [
      [1_300, 1_000],
      [700, 500],
      [150, 200],
    ] as const)
      expect(await handleDelivery(delivery(4), deps, { scheduleBase: 2, holdUntil: at + left })).toEqual({
        state: 'held',
        reason: 'waiting',
        tierMs,
      });
    expect(log.held).toEqual([
      [4, 1_000, 2, at + 1_300],
      [4, 500, 2, at + 700],
      [4, 200, 2, at + 150],
    ]);
    expect([asked, kind.sent]).toEqual([0, 0]);
    // held again is not a new hold: the gate's holds are counted once
    expect(await metrics.getSingleMetricAsString('relay_delivery_held_total')).not.toContain('reason=');
    expect(await handleDelivery(delivery(4), deps, { scheduleBase: 2, holdUntil: at })).toMatchObject({
      state: 'delivered',
    });
    expect([asked, kind.sent]).toEqual([1, 1]);
  });

  it('let through → sent, and the gate is told the outcome with the pass it gave (its lease, or the probe)', async () => {
    const { deps, settled } = setup([unavailable, ok], target(), 3, [
      { verdict: 'go', lease: 'L1' },
      { verdict: 'probe', lease: 'P1' },
    ]);
    await handleDelivery(delivery(), deps);
    await handleDelivery(delivery(), deps);
    expect(settled).toEqual([
      { pass: { verdict: 'go', lease: 'L1' }, result: 'retry', sent: true },
      { pass: { verdict: 'probe', lease: 'P1' }, result: 'success', sent: true },
    ]);
  });

  it('a disabled, flagged or deleted target does not ask the gate', async () => {
    for (const t of [target({ enabled: false }), target({ flagged: { reason: 'x', at: NOW } }), null]) {
      const { deps, settled, log } = setup([ok], t, 3, [{ verdict: 'hold', reason: 'rate', waitMs: 1 }]);
      await handleDelivery(delivery(), deps);
      expect([settled, log.retried]).toEqual([[], []]);
      expect(log.recorded[0]?.state).toBe('failed');
    }
  });
});

describe('relay_target_breaker_state: the held targets by breaker state, read at scrape time', () => {
  it('counts each state, a target never changed as closed, every state present from the start', async () => {
    const metrics = new Registry();
    const held: TargetRecord[] = [];
    registerBreakerStateGauge(metrics, () => held);
    const at = (state: 'open' | 'paused') => ({ state, since: NOW, reason: 'x', seq: 1 });
    expect(await metrics.getSingleMetricAsString('relay_target_breaker_state')).toMatch(/state="open"} 0/);
    held.push(
      target(),
      target({ id: 'tg_2', breaker_state: at('open') }),
      target({ id: 'tg_3', breaker_state: at('open') }),
      target({ id: 'tg_4', breaker_state: at('paused') }),
    );
    const text = await metrics.getSingleMetricAsString('relay_target_breaker_state');
    for (const line of ['state="closed"} 1', 'state="open"} 2', 'state="half_open"} 0', 'state="paused"} 1'])
      expect(text).toContain(line);
  });
});
