import { must } from '@relay/client';
import type { RelayClient } from '@relay/client';
import { eventually } from '../support/infra';
import { TestReceiver } from '../support/receiver';
import type { CapturedRequest } from '../support/receiver';
import { bootstrapAccount } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * One account's endless transformation beside another account's traffic, on the real stack
 * (docs/transformations.md "Limits"): the looping account's calls past its share of the sandbox
 * are not run and end TRANSFORM_FAILED like its timeouts, kept; once its code is fixed, a resend
 * delivers them.
 */
let stack: Stack;
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await TestReceiver.start();
  stack = await startStack('transform-isolation');
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

async function accountWith(code: string): Promise<{ client: RelayClient; endpointId: string; targetId: string }> {
  const client = stack.clientAs((await bootstrapAccount(stack.env, ['--account', 'isolation'])).api_key);
  const endpoint = await must(client.POST('/v1/endpoints', { body: { name: 'shop' } }));
  const target = await must(
    client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId: endpoint.id } },
      body: { kind: 'webhook', name: 'partner', config: { url: receiver.url(), enforce_https: false } },
    }),
  );
  await save(client, endpoint.id, code);
  return { client, endpointId: endpoint.id, targetId: target.id };
}

const save = (client: RelayClient, endpointId: string, code: string) =>
  must(client.PUT('/v1/endpoints/{endpointId}/transformation', { params: { path: { endpointId } }, body: { code } }));

async function send(endpointId: string, body: string): Promise<string> {
  const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  expect(res.status).toBe(202);
  return res.headers.get('x-relay-event-id')!;
}

const deliveriesOf = (eventId: string): CapturedRequest[] =>
  receiver.requests.filter((q) => q.headers['x-relay-event-id'] === eventId);

const delivered = (eventId: string) =>
  eventually(async () => deliveriesOf(eventId).length > 0 && deliveriesOf(eventId), 20000, `${eventId} delivered`);

/** The state its one delivery ended in, and the first attempt's error. */
const settled = (client: RelayClient, eventId: string) =>
  eventually(
    async () => {
      const row = (await client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } })).data;
      const d = row?.status === 'pending' ? undefined : row?.deliveries[0];
      return d && { state: d.state, error: d.attempts[0]?.error ?? null };
    },
    20000,
    `${eventId} settled`,
  );

const json = (q: CapturedRequest): unknown => JSON.parse(q.body.toString('utf8'));

describe('an account’s share of the sandbox', () => {
  it('account A’s endless loop on many events: all of B’s are delivered; A’s past its share are TRANSFORM_FAILED “not run”, kept, and delivered once fixed and resent', async () => {
    const a = await accountWith(`(r) => { for (;;) {} }`);
    const b = await accountWith(`(r) => ({ ...r, body: { b: r.body.i } })`);
    const sent = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        Promise.all([send(a.endpointId, `{"i":${i}}`), send(b.endpointId, `{"i":${i}}`)]),
      ),
    );
    for (const [, bEvent] of sent) await delivered(bEvent!);
    expect(sent.map(([, bEvent]) => json(deliveriesOf(bEvent!)[0]!))).toEqual(sent.map((_, i) => ({ b: i })));

    const ended = await Promise.all(sent.map(([aEvent]) => settled(a.client, aEvent!)));
    expect(ended.map((e) => e.state)).toEqual(sent.map(() => 'transform_failed'));
    const errors = ended.map((e) => e.error!);
    for (const error of errors) expect(error).toMatch(/^TRANSFORM_FAILED: endpoint transformation v1(, line 1)?: /);
    const refused = sent
      .map(([aEvent]) => aEvent!)
      .filter((_, i) => /not run: .*share of the sandbox/.test(errors[i]!));
    expect(refused.length).toBeGreaterThan(0);
    // the loops that ran were stopped by their budget; the others never reached the sandbox
    expect(errors.filter((e) => !/not run/.test(e)).every((e) => /interrupted/.test(e))).toBe(true);
    expect(refused.flatMap(deliveriesOf)).toEqual([]);

    await save(a.client, a.endpointId, `(r) => ({ ...r, body: { fixed: r.body.i } })`);
    // refused until its share is back; once a call of the fixed code ran, the account's calls run
    await eventually(
      async () => (await settled(a.client, await send(a.endpointId, '{"i":-1}'))).state === 'delivered',
      20000,
      'a call of the fixed code delivered',
    );
    const resent = await eventually(
      async () => {
        const res = await a.client.POST('/v1/activity/{eventId}/resend', {
          params: { path: { eventId: refused[0]! } },
          body: { target_id: a.targetId },
        });
        return res.error?.code === 'payload_not_stored' ? undefined : res;
      },
      10000,
      'the payload stored',
    );
    expect(resent.response.status).toBe(202);
    const [got] = await delivered(refused[0]!);
    expect(json(got!)).toMatchObject({ fixed: expect.any(Number) });
    expect(deliveriesOf(refused[0]!)).toHaveLength(1);
  });
});
