import { must } from '@relay/client';
import type { TargetCreate } from '@relay/client';
import { openActivityLog } from '@relay/activity-log';
import { eventually } from '../support/infra';
import { TestReceiver } from '../support/receiver';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * Routing rules per target (docs/routing.md), every service its own process on
 * the real RabbitMQ, Redis and FerretDB: each target receives exactly the events whose payload
 * meets its rules, a target not routed costs no delivery, and each row names the targets it was
 * not routed to.
 */
let stack: Stack;
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await TestReceiver.start();
  stack = await startStack('routing');
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

const EVENTS = 1000;
const TYPES = ['order.paid', 'order.created', 'order.refunded', 'customer.updated'] as const;

/** Event n's payload: a type, an amount (a number, or for every 7th event a numeric string), a tier only on some. */
function payloadOf(n: number) {
  const amount = (n * 37) % 250;
  return {
    n,
    type: TYPES[n % TYPES.length],
    amount: n % 7 === 0 ? String(amount) : amount,
    ...(n % 5 === 0 ? { customer: { tier: n % 10 === 0 ? 'gold' : 'silver' } } : {}),
  };
}

interface Spec {
  name: string;
  routing: TargetCreate['routing'];
  expects: (p: ReturnType<typeof payloadOf>) => boolean;
}

const SPECS: Spec[] = [
  {
    name: 'sales',
    routing: { match: 'all', rules: [{ kind: 'equals', path: 'type', value: 'order.paid' }] },
    expects: (p) => p.type === 'order.paid',
  },
  {
    name: 'big-or-gold',
    routing: {
      match: 'any',
      rules: [
        { kind: 'gte', path: 'amount', value: 200 },
        { kind: 'equals', path: 'customer.tier', value: 'GOLD', case_insensitive: true },
      ],
    },
    expects: (p) => Number(p.amount) >= 200 || p.customer?.tier === 'gold',
  },
  {
    name: 'orders-not-refunds-with-customer',
    routing: {
      match: 'all',
      rules: [
        { kind: 'regex', path: 'type', pattern: '^order\\.' },
        { kind: 'not_contains', path: 'type', value: 'refund' },
        { kind: 'exists', path: 'customer' },
        { kind: 'one_of', path: 'customer.tier', values: ['gold', 'silver'] },
        { kind: 'lt', path: 'amount', value: 240 },
      ],
    },
    expects: (p) =>
      p.type.startsWith('order.') && p.type !== 'order.refunded' && p.customer !== undefined && Number(p.amount) < 240,
  },
  { name: 'everything', routing: null, expects: () => true },
];

describe('routing rules per target: a condition on the payload decides whether that target gets the event', () => {
  it('refuses routing at save, naming the field, where the endpoint’s payload format has no fields', async () => {
    const text = await must(stack.client.POST('/v1/endpoints', { body: { name: 'plain', payload_format: 'text' } }));
    const refused = stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId: text.id } },
      body: {
        kind: 'webhook',
        name: 'r',
        config: { url: receiver.url('/never'), enforce_https: false },
        routing: { rules: [{ kind: 'exists', path: 'type' }] },
      },
    });
    await expect(must(refused)).rejects.toMatchObject({
      status: 400,
      errors: [{ field: 'routing', message: expect.stringContaining('payload format is text') }],
    });

    const json = await must(stack.client.POST('/v1/endpoints', { body: { name: 'json' } }));
    const onJson = { path: { endpointId: json.id } };
    const routed = stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: onJson,
      body: {
        kind: 'webhook',
        name: 'r',
        config: { url: receiver.url('/never'), enforce_https: false },
        routing: { rules: [{ kind: 'regex', path: 'type', pattern: '(?!x)' }] },
      },
    });
    await expect(must(routed)).rejects.toMatchObject({
      status: 400,
      errors: [{ field: 'routing.rules[0].pattern', message: expect.stringContaining('lookahead') }],
    });
    const target = await must(
      stack.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: onJson,
        body: { kind: 'webhook', name: 'r', config: { url: receiver.url('/never'), enforce_https: false } },
      }),
    );
    const patched = await must(
      stack.client.PATCH('/v1/endpoints/{endpointId}/targets/{targetId}', {
        params: { path: { endpointId: json.id, targetId: target.id } },
        body: { routing: { rules: [{ kind: 'exists', path: 'type' }] } },
      }),
    );
    expect(patched.routing).toEqual({ match: 'all', rules: [{ kind: 'exists', path: 'type' }] });
    // …and the endpoint cannot then switch to a format routing cannot read
    const toText = stack.client.PATCH('/v1/endpoints/{endpointId}', {
      params: onJson,
      body: { payload_format: 'text' },
    });
    await expect(must(toText)).rejects.toMatchObject({
      status: 400,
      errors: [{ field: 'payload_format', message: expect.stringContaining(target.id) }],
    });
  });

  it('1,000 mixed events: each target receives exactly the matching ones; each row names the targets not routed', async () => {
    const endpoint = await must(
      stack.client.POST('/v1/endpoints', { body: { name: 'routed', rate_limit_per_minute: 100_000 } }),
    );
    const targets: Array<Spec & { id: string }> = [];
    for (const spec of SPECS) {
      const t = await must(
        stack.client.POST('/v1/endpoints/{endpointId}/targets', {
          params: { path: { endpointId: endpoint.id } },
          body: {
            kind: 'webhook',
            name: spec.name,
            config: { url: receiver.url(`/${spec.name}`), enforce_https: false },
            ...(spec.routing ? { routing: spec.routing } : {}),
          },
        }),
      );
      targets.push({ ...spec, id: t.id });
    }

    const url = `${stack.services['ingest-gateway']!.url}/relay/${endpoint.id}`;
    const statuses: number[] = [];
    for (let start = 0; start < EVENTS; start += 25) {
      const batch = Array.from({ length: Math.min(25, EVENTS - start) }, (_, i) => start + i);
      statuses.push(
        ...(await Promise.all(
          batch.map(
            async (n) =>
              (
                await fetch(url, {
                  method: 'POST',
                  headers: { 'content-type': 'application/json' },
                  body: JSON.stringify(payloadOf(n)),
                })
              ).status,
          ),
        )),
      );
    }
    expect(statuses.filter((s) => s !== 202)).toEqual([]);

    const expected = targets.map((t) =>
      Array.from({ length: EVENTS }, (_, n) => n).filter((n) => t.expects(payloadOf(n))),
    );
    const total = expected.reduce((sum, list) => sum + list.length, 0);
    await receiver.waitForRequests(total, 120_000);
    // nothing more arrives: a target not routed costs no delivery
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.requests).toHaveLength(total);
    const byPath = (path: string) =>
      receiver.requests
        .filter((r) => r.url === path)
        .map((r) => (JSON.parse(r.body.toString('utf8')) as { n: number }).n)
        .sort((a, b) => a - b);
    targets.forEach((t, i) =>
      expect({ target: t.name, got: byPath(`/${t.name}`) }).toEqual({ target: t.name, got: expected[i] }),
    );
    // every class of rule held some events back and let some through
    for (const list of expected.slice(0, 3)) expect(list.length).toBeGreaterThan(0);
    for (const list of expected.slice(0, 3)) expect(list.length).toBeLessThan(EVENTS);

    // each row: delivered to the routed targets, the others named not routed
    const eventOf = new Map(
      receiver.requests
        .filter((r) => r.url === '/everything')
        .map((r) => [(JSON.parse(r.body.toString('utf8')) as { n: number }).n, String(r.headers['x-relay-event-id'])]),
    );
    expect(eventOf.size).toBe(EVENTS);
    const log = openActivityLog(stack.store.connection, 'ferretdb');
    const rows = await eventually(
      async () => {
        const docs = await Promise.all([...eventOf.values()].map((id) => log.row(id)));
        return docs.every((d) => d?.status === 'completed') ? docs : undefined;
      },
      60_000,
      '1,000 completed rows',
    );
    const byEvent = new Map(rows.map((d) => [d!._id, d!]));
    for (const [n, eventId] of eventOf) {
      const row = byEvent.get(eventId)!;
      const routed = targets.filter((t) => t.expects(payloadOf(n)));
      expect({ n, target_count: row.target_count, not_routed: [...(row.not_routed ?? [])].sort() }).toEqual({
        n,
        target_count: routed.length,
        not_routed: targets
          .filter((t) => !routed.includes(t))
          .map((t) => t.id)
          .sort(),
      });
    }
    // the API's row says so per target, with names
    const sample = [...eventOf.entries()].find(([n]) => !targets[0]!.expects(payloadOf(n)))!;
    const opened = await must(stack.client.GET('/v1/activity/{eventId}', { params: { path: { eventId: sample[1] } } }));
    expect(opened.not_routed).toEqual(expect.arrayContaining([{ target_id: targets[0]!.id, target_name: 'sales' }]));
    expect(opened.deliveries.map((d) => d.target_name)).toContain('everything');
  });
});
