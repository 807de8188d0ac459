import { CLI_FORWARD_V1, DELIVERY_V1 } from '@relay/contracts';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { CATALOG } from '../../catalog';
import { PayloadError } from '../../kind';
import { classifyCliOutcome } from './classify';
import { cliForward } from './forward';
import { CLI_RETRY_SCHEDULE_MS, createCliKind } from './kind';
import type { CliLink } from './kind';
import { drainedAttempt } from './backlog';
import { BACKLOG_MAX_AGE_MS, MAX_FORWARD_BODY_BYTES } from './caps';
import { inMirrorSample, mirrorPercentOf } from './mirror';

const secrets = { encrypt: (s: string) => `sealed:${s}`, decrypt: (s: string) => s.slice(7) };

function delivery(over: Partial<DeliveryMessageV1> = {}): DeliveryMessageV1 {
  return {
    type: DELIVERY_V1,
    event_id: 'evt_1',
    delivery_id: 'dlv_1',
    attempt: 2,
    account_id: 'acc_1',
    endpoint_id: 'ep_1',
    target_id: 'tg_1',
    target_kind: 'cli',
    received_at: '2026-11-26T00:00:00.000Z',
    request: {
      method: 'POST',
      source_ip: '203.0.113.9',
      query: '',
      headers: {
        'x-github-event': 'push',
        'x-hub-signature-256': 'sha256=ab',
        'x-forwarded-for': '1.2.3.4',
        'x-relay-attempt': '9',
        'x-bad': 'a\nb',
      },
    },
    payload: { content_type: 'application/json', body_base64: Buffer.from('{"a":1}').toString('base64') },
    ...over,
  };
}

/** the local server's answer as the CLI reports it */
const local = (status: number, headers: Record<string, string> = {}) => ({
  status,
  headers,
  body: '',
  duration_ms: 3,
});

describe('CLI session kind: config, described once', () => {
  const kind = createCliKind({ secrets });
  it.each([
    [{}, { ok: true, value: { in_flight: 10 } }],
    [{ in_flight: 3 }, { ok: true, value: { in_flight: 3 } }],
    [{ in_flight: 0 }, { ok: false, field: 'config.in_flight' }],
    [{ in_flight: 51 }, { ok: false, field: 'config.in_flight' }],
    [{ url: 'http://127.0.0.1:3000' }, { ok: false, field: 'config.url' }],
  ])('%j', (input, want) => {
    const got = kind.validateConfig(input);
    expect(got.ok).toBe(want.ok);
    if (got.ok) expect(got.value).toEqual((want as { value: unknown }).value);
    else expect(got.errors.map((e) => e.field)).toContain((want as { field: string }).field);
  });

  it('is on the outputs channel and its schedule adds no retry queue to it', () => {
    expect(CATALOG.channelOf('cli')).toBe('outputs');
    const others = CATALOG.entries
      .filter((e) => e.channel === 'outputs' && e.kind !== 'cli')
      .flatMap((e) => e.defaultRetryScheduleMs);
    for (const delay of CLI_RETRY_SCHEDULE_MS) expect(others).toContain(delay);
  });
});

describe('CLI session kind: the forward a session receives', () => {
  it('carries forwardable headers, Content-Type and Relay tracking headers; never Relay-namespace or proxy-hop headers from the sender', () => {
    const f = cliForward(delivery());
    expect(f.type).toBe(CLI_FORWARD_V1);
    expect(f.headers).toEqual({
      'x-github-event': 'push',
      'x-hub-signature-256': 'sha256=ab',
      'content-type': 'application/json',
      'x-relay-event-id': 'evt_1',
      'x-relay-delivery-id': 'dlv_1',
      'x-relay-attempt': '2',
    });
    expect(Buffer.from(f.body_base64, 'base64').toString()).toBe('{"a":1}');
  });

  it('format None: an empty body and no Content-Type', () => {
    const f = cliForward(delivery({ payload: { content_type: null, body_base64: '' } }));
    expect(f.body_base64).toBe('');
    expect(f.headers['content-type']).toBeUndefined();
  });

  it('a body over the session limit is a PayloadError (permanent, target not flagged)', () => {
    const big = Buffer.alloc(MAX_FORWARD_BODY_BYTES + 1, 97).toString('base64');
    expect(() => cliForward(delivery({ payload: { content_type: 'text/plain', body_base64: big } }))).toThrow(
      PayloadError,
    );
  });
});

describe('CLI session kind: outcomes', () => {
  it.each([
    [local(200), 'success'],
    [local(204), 'success'],
    [local(404), 'permanent'],
    [local(302), 'permanent'],
    [local(429), 'retry'],
    [local(503), 'retry'],
    [{ error: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:3000' }, duration_ms: 1 }, 'retry'],
    ['no_session', 'retry'],
    ['timeout', 'retry'],
    ['session_gone', 'retry'],
    ['broker_unavailable', 'retry'],
  ] as const)('%j → %s', (got, want) => {
    const r = classifyCliOutcome(got);
    expect(r.result).toBe(want);
    if (r.result === 'permanent') expect(r.flagTarget).toBe(false);
  });

  it('Retry-After from the local server is the retry hint', () => {
    expect(classifyCliOutcome(local(503, { 'retry-after': '7' }))).toMatchObject({
      result: 'retry',
      retryAfterMs: 7000,
    });
  });

  it('deliver hands the forward to the link and classifies its answer; without a link it waits (retry)', async () => {
    const seen: unknown[] = [];
    const link: CliLink = {
      forward: async (f, timeoutMs) => (seen.push([f.delivery_id, timeoutMs]), local(201)),
      keep: async () => true,
    };
    await expect(createCliKind({ secrets, cli: link }).deliver({ in_flight: 10 }, delivery())).resolves.toEqual({
      result: 'success',
      status: 201,
    });
    expect(seen).toEqual([['dlv_1', 15_000]]);
    await expect(createCliKind({ secrets }).deliver({ in_flight: 10 }, delivery())).resolves.toMatchObject({
      result: 'retry',
    });
  });
});

describe('CLI session kind: the backlog', () => {
  const linkWith = (kept: boolean) => {
    const keeps: DeliveryMessageV1[] = [];
    const link: CliLink = {
      forward: async () => 'no_session',
      keep: async (d) => (keeps.push(d), kept),
    };
    return { link, keeps };
  };
  const fresh = () => delivery({ received_at: new Date().toISOString() });

  it('no session: the delivery is kept as its next attempt, and the attempt says so (nothing sent, no retry of its own)', async () => {
    const { link, keeps } = linkWith(true);
    await expect(createCliKind({ secrets, cli: link }).deliver({ in_flight: 10 }, fresh())).resolves.toEqual({
      result: 'kept',
      status: null,
      error: 'no relay listen session is connected for this target; kept in its backlog for the next session',
    });
    expect(keeps.map((d) => [d.delivery_id, d.attempt])).toEqual([['dlv_1', 3]]);
  });

  it('a backlog that refuses it (full): retried on the schedule', async () => {
    const { link } = linkWith(false);
    await expect(createCliKind({ secrets, cli: link }).deliver({ in_flight: 10 }, fresh())).resolves.toMatchObject({
      result: 'retry',
    });
  });

  it('an event accepted long ago (a resend of it) is kept like any other: the backlog times its own entries', async () => {
    const { link, keeps } = linkWith(true);
    const old = delivery({ received_at: new Date(Date.now() - BACKLOG_MAX_AGE_MS - 1000).toISOString() });
    await expect(createCliKind({ secrets, cli: link }).deliver({ in_flight: 10 }, old)).resolves.toMatchObject({
      result: 'kept',
    });
    expect(keeps).toHaveLength(1);
  });

  describe('a drained delivery: its row, and whether it is tried again at the head', () => {
    const at = new Date('2026-11-29T08:00:00.000Z');
    const schedule = [5_000, 10_000];
    const d = delivery({ attempt: 2 });

    it('delivered', () => {
      expect(drainedAttempt(d, 0, local(200), schedule, at)).toEqual({
        record: expect.objectContaining({
          delivery_id: 'dlv_1',
          attempt: 2,
          state: 'delivered',
          status_code: 200,
          error: null,
          next_attempt_at: null,
          duration_ms: 3,
          attempted_at: '2026-11-29T08:00:00.000Z',
        }),
        retryInMs: null,
      });
    });

    it('a retryable answer waits the schedule (or a longer Retry-After), counting the tries of this drain', () => {
      const refused = { error: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }, duration_ms: 1 };
      expect(drainedAttempt(d, 0, refused, schedule, at)).toMatchObject({
        record: { attempt: 2, state: 'retrying', next_attempt_at: '2026-11-29T08:00:05.000Z' },
        retryInMs: 5_000,
      });
      expect(drainedAttempt(d, 1, local(503, { 'retry-after': '30' }), schedule, at)).toMatchObject({
        record: { attempt: 3, state: 'retrying', status_code: 503 },
        retryInMs: 30_000,
      });
    });

    it('failed: a permanent answer, or the schedule used up', () => {
      expect(drainedAttempt(d, 0, local(404), schedule, at)).toMatchObject({
        record: { state: 'failed', error: 'local HTTP 404' },
        retryInMs: null,
      });
      expect(drainedAttempt(d, 2, 'timeout', schedule, at)).toMatchObject({
        record: { attempt: 4, state: 'failed', error: 'no relay listen session answered in time', duration_ms: 0 },
        retryInMs: null,
      });
    });
  });
});

describe('CLI session kind: the mirror sample', () => {
  const ids = Array.from({ length: 20_000 }, (_, i) => `evt_01jd${i.toString(36).padStart(22, '0')}`);

  it.each([1, 10, 50])('%i%% takes about that share of event ids', (percent) => {
    const share = ids.filter((id) => inMirrorSample(id, percent)).length / ids.length;
    expect(Math.abs(share - percent / 100)).toBeLessThan(0.01);
  });

  it('is decided by the event id alone: the same answer every time, and a smaller sample is inside a larger one', () => {
    for (const id of ids.slice(0, 500)) {
      expect(inMirrorSample(id, 10)).toBe(inMirrorSample(id, 10));
      if (inMirrorSample(id, 10)) expect(inMirrorSample(id, 20)).toBe(true);
    }
    expect(ids.every((id) => inMirrorSample(id, 100))).toBe(true);
  });

  it('only a CLI target with a share below 100 is a mirror', () => {
    expect(mirrorPercentOf('cli', { mirror_percent: 10 })).toBe(10);
    expect(mirrorPercentOf('cli', { mirror_percent: 100 })).toBeNull();
    expect(mirrorPercentOf('cli', {})).toBeNull();
    expect(mirrorPercentOf('webhook', { mirror_percent: 10 })).toBeNull();
  });

  it('mirror_percent is validated as a whole percent', () => {
    const kind = createCliKind({ secrets });
    expect(kind.validateConfig({ mirror_percent: 10 })).toMatchObject({
      ok: true,
      value: { in_flight: 10, mirror_percent: 10 },
    });
    for (const bad of [0, 101, 2.5, '10%'])
      expect(kind.validateConfig({ mirror_percent: bad })).toMatchObject({
        ok: false,
        errors: [expect.objectContaining({ field: 'config.mirror_percent' })],
      });
  });
});
