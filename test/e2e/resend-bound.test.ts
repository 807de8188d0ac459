import { must } from '@relay/client';
import { openActivityLog } from '@relay/activity-log';
import { eventually } from '../support/infra';
import { TestReceiver } from '../support/receiver';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * Resend cost is bounded: an editor resending one event with 5 targets 261
 * times made its row 433 KB. Resends of one event may add at most MAX_RESENT_DELIVERIES_PER_EVENT
 * (100) deliveries, so 1,000 resends leave the row at its 5 first deliveries plus 100, the same
 * size after the 1,000th as after the 20th; every resend past the allowance is a 409
 * `resend_limit_reached` that names it. Every service its own process on the real servers.
 */
let stack: Stack;
let receiver: TestReceiver;

const TARGETS = 5;
const RESENDS = 1000;
const CAP = 100;
const BATCH = 10;

beforeAll(async () => {
  receiver = await TestReceiver.start();
  // the shared stack sets no resend rate per account (test/e2e/worker-stacks.ts)
  stack = await startStack('resendbound');
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

describe('resend cost is bounded: 1,000 resends of one event', () => {
  it('the row stops growing at the documented allowance; later resends are refused with resend_limit_reached', async () => {
    const endpoint = await must(stack.client.POST('/v1/endpoints', { body: { name: 'resent' } }));
    for (let i = 0; i < TARGETS; i++) {
      await must(
        stack.client.POST('/v1/endpoints/{endpointId}/targets', {
          params: { path: { endpointId: endpoint.id } },
          body: { kind: 'webhook', name: `r${i}`, config: { url: receiver.url(`/t${i}`), enforce_https: false } },
        }),
      );
    }
    const sent = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpoint.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"order":1}',
    });
    expect(sent.status).toBe(202);
    const eventId = sent.headers.get('x-relay-event-id')!;
    const log = openActivityLog(stack.store.connection, 'ferretdb');
    const settled = (deliveries: number) =>
      eventually(
        async () => {
          const row = await log.row(eventId);
          const all = Object.values(row?.deliveries ?? {});
          return all.length === deliveries && all.every((d) => d.state === 'delivered') ? row! : undefined;
        },
        60_000,
        `${deliveries} delivered deliveries on the row`,
      );
    await settled(TARGETS);
    // the payload travels apart from the row: wait until a resend can find it (documented 409 "not yet")
    await eventually(async () => ((await log.payload(eventId)) ? true : undefined), 20_000, 'the stored payload');

    const statuses = new Map<string, number>();
    const sizes: Record<number, number> = {};
    const deadline = Date.now() + 480_000;
    // ten at a time, as a script would send them: the allowance is taken atomically, so however
    // they interleave exactly CAP / TARGETS are accepted
    for (let n = BATCH; n <= RESENDS; n += BATCH) {
      if (Date.now() > deadline) throw new Error(`only ${n - BATCH} resends within the test's time bound`);
      const answers = await Promise.all(
        Array.from({ length: BATCH }, () =>
          stack.client.POST('/v1/activity/{eventId}/resend', { params: { path: { eventId } } }),
        ),
      );
      for (const { response, error } of answers) {
        const key = response.status === 202 ? '202' : `${response.status} ${error?.code}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        if (response.status === 409) expect(error?.message).toContain(`at most ${CAP} deliveries`);
      }
      if ([10, 100, RESENDS].includes(n)) {
        process.stdout.write(`resend ${n}: ${JSON.stringify(Object.fromEntries(statuses))}\n`);
        const accepted = statuses.get('202') ?? 0;
        const row = await settled(TARGETS + accepted * TARGETS);
        sizes[n] = Buffer.byteLength(JSON.stringify(row));
      }
    }
    expect(Object.fromEntries(statuses)).toEqual({
      '202': CAP / TARGETS,
      '409 resend_limit_reached': RESENDS - CAP / TARGETS,
    });
    // flat from the 100th to the 1,000th: the same row, its 5 first deliveries and 100 resent ones
    expect(sizes[RESENDS]).toBe(sizes[100]);
    expect(sizes[100]).toBeGreaterThan(sizes[10]!);
    expect(Object.keys((await log.row(eventId))!.deliveries)).toHaveLength(TARGETS + CAP);
    expect(sizes[RESENDS]).toBeLessThan(64 * 1024);
    expect(receiver.requests).toHaveLength(TARGETS + CAP);
  }, 600_000);
});
