import { CLI_FORWARD_V1, DELIVERY_V1 } from '@relay/contracts';
import type { DeliveryMessageV1 } from '@relay/contracts';
import { CATALOG } from '../../catalog';
import { PayloadError } from '../../kind';
import { classifyCliOutcome } from './classify';
import { cliForward } from './forward';
import { CLI_RETRY_SCHEDULE_MS, createCliKind } from './kind';
import type { CliLink } from './kind';
import { MAX_FORWARD_BODY_BYTES } from './caps';

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
  const local = (status: number, headers: Record<string, string> = {}) => ({
    status,
    headers,
    body: '',
    duration_ms: 3,
  });
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
    const link: CliLink = { forward: async (f, timeoutMs) => (seen.push([f.delivery_id, timeoutMs]), local(201)) };
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
