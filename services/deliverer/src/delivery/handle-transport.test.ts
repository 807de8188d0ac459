import { PassThrough } from 'node:stream';
import { PASS_THROUGH } from '@relay/transform';
import { Registry } from 'prom-client';
import type { ActivityAttemptV1, DeliveryMessageV1 } from '@relay/contracts';
import { createLogger } from '@relay/logging';
import type { TargetRecord } from '@relay/store';
import { createRegistry, PayloadError, TargetConfigError } from '@relay/targets';
import type { AttemptResult, TransportKind } from '@relay/targets';
import { handleDelivery } from './handle';
import { createDeliveryMetrics } from './metrics';
import type { DeliveryDeps } from './ports';

/* A kind with a transport of its own (email, spreadsheet) goes through the same handler. */

const NOW = new Date('2030-01-01T00:00:00.000Z');
const target: TargetRecord = {
  id: 'tg_1',
  account_id: 'acc',
  endpoint_id: 'ep',
  kind: 'mail',
  name: 't',
  enabled: true,
  config: { to: ['a@b.co'] },
  flagged: null,
  retry_schedule_ms: [200],
  created_at: NOW,
  updated_at: NOW,
};
const delivery: DeliveryMessageV1 = {
  type: 'relay.delivery.v1',
  event_id: 'evt_1',
  delivery_id: 'dlv_1',
  attempt: 1,
  account_id: 'acc',
  endpoint_id: 'ep',
  target_id: 'tg_1',
  target_kind: 'mail',
  received_at: NOW.toISOString(),
  request: { method: 'POST', source_ip: '127.0.0.1', headers: {}, query: '' },
  payload: { content_type: null, body_base64: '' },
};

function setup(deliver: TransportKind['deliver']) {
  const calls: unknown[] = [];
  const kind: TransportKind = {
    kind: 'mail',
    channel: 'outputs',
    defaultRetryScheduleMs: [1_000],
    description: { label: 'Mail', fields: {} },
    resendable: false,
    validateConfig: (c: unknown) => ({ ok: true as const, value: c }),
    publicConfig: () => ({}),
    deliver: async (config, d) => {
      calls.push([config, d.delivery_id]);
      return deliver(config, d);
    },
  };
  const log = {
    recorded: [] as ActivityAttemptV1[],
    dead: 0,
    retries: 0,
    flags: [] as string[],
    streak: 0,
    sends: 0,
    settled: [] as Array<[string, boolean]>,
  };
  const deps: DeliveryDeps = {
    targets: { find: async () => target },
    gate: {
      admit: async () => ({ verdict: 'go', lease: null }),
      settle: async (_t, _p, outcome, sent) => void log.settled.push([outcome.result, sent]),
    },
    registry: createRegistry([kind]),
    transform: PASS_THROUGH,
    send: async () => {
      log.sends += 1;
      throw new Error('a transport kind never uses the HTTP sender');
    },
    recorder: { record: async (a) => void log.recorded.push(a) },
    router: { retry: async () => void (log.retries += 1), deadLetter: async () => void (log.dead += 1) },
    health: {
      flag: async (_id, reason) => (log.flags.push(reason), true),
      permanentFailure: () => ++log.streak,
      reset: () => void (log.streak = 0),
    },
    meter: createDeliveryMetrics(new Registry()),
    policy: { tiersMs: [200, 1_000], jitterPct: 0, retryAfterMaxMs: 1_000, flagAfterPermanentFailures: 3 },
    logger: createLogger({ service: 'test', level: 'error', stream: new PassThrough() }),
    now: () => NOW,
    random: () => 0,
  };
  return { deps, log, calls };
}

describe('handleDelivery with a TransportKind', () => {
  it('calls deliver with the stored config, never the HTTP sender, and records its result', async () => {
    const { deps, log, calls } = setup(async () => ({ result: 'success', status: 250 }));
    await handleDelivery(delivery, deps);
    expect(calls).toEqual([[{ to: ['a@b.co'] }, 'dlv_1']]);
    expect(log.sends).toBe(0);
    expect(log.recorded.map((a) => [a.state, a.status_code])).toEqual([['delivered', 250]]);
  });

  it('a permanent result that flags (550 5.1.1) flags the target', async () => {
    const unknown: AttemptResult = {
      result: 'permanent',
      status: 550,
      error: 'mail relay answered 550 5.1.1 unknown',
      flagTarget: true,
    };
    const { deps, log } = setup(async () => unknown);
    await handleDelivery(delivery, deps);
    expect(log.flags).toHaveLength(1);
    expect(log.dead).toBe(1);
  });

  it('a PayloadError thrown by deliver: failed, not flagged, not counted toward the streak', async () => {
    const { deps, log } = setup(async () => {
      throw new PayloadError('MESSAGE_TOO_LARGE', 'the email would be 11000000 bytes');
    });
    await expect(handleDelivery(delivery, deps)).resolves.toEqual({ state: 'failed', reason: 'permanent' });
    expect(log.recorded[0]).toMatchObject({
      state: 'failed',
      error: 'MESSAGE_TOO_LARGE: the email would be 11000000 bytes',
    });
    expect([log.flags, log.streak]).toEqual([[], 0]);
  });

  it('a TargetConfigError thrown by deliver flags the target', async () => {
    const { deps, log } = setup(async () => {
      throw new TargetConfigError('SECRET_UNREADABLE', 'the stored service account key cannot be opened');
    });
    await handleDelivery(delivery, deps);
    expect(log.flags).toEqual(['SECRET_UNREADABLE: the stored service account key cannot be opened']);
  });

  it('a CLI backlog entry back expired: recorded failed as it is, nothing delivered, retried or dead-lettered', async () => {
    const { deps, log, calls } = setup(async () => ({ result: 'success', status: 200 }));
    await expect(handleDelivery(delivery, deps, { scheduleBase: 1, keptTooLong: true })).resolves.toEqual({
      state: 'failed',
      reason: 'exhausted',
    });
    expect(calls).toEqual([]);
    expect(log.recorded).toEqual([
      expect.objectContaining({
        state: 'failed',
        next_attempt_at: null,
        error: 'kept in the backlog as long as it keeps a delivery, and no relay listen session took it',
      }),
    ]);
    expect([log.retries, log.dead, log.settled]).toEqual([0, 0, []]);
  });

  it('a delivery the kind keeps (a CLI session target with no session): recorded as retrying with no next attempt; nothing published; not sent for the breaker', async () => {
    const { deps, log } = setup(async () => ({ result: 'kept', status: null, error: 'kept in its backlog' }));
    await expect(handleDelivery(delivery, deps)).resolves.toEqual({ state: 'kept' });
    expect(log.recorded).toEqual([
      expect.objectContaining({ state: 'retrying', next_attempt_at: null, error: 'kept in its backlog', attempt: 1 }),
    ]);
    expect([log.retries, log.dead, log.flags, log.streak]).toEqual([0, 0, [], 0]);
    expect(log.settled).toEqual([['kept', false]]);
  });
});
