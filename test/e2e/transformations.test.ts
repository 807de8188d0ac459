import { must } from '@relay/client';
import type { ActivityRow, EndpointCreate, RelayClient } from '@relay/client';
import { eventually } from '../support/infra';
import { TestReceiver } from '../support/receiver';
import type { CapturedRequest } from '../support/receiver';
import { bootstrapAccount } from '../support/services';
import { startStack } from './stack';
import type { Stack } from './stack';

/**
 * Transformations on the real stack (docs/transformations.md): saved through the management API,
 * run by the deliverer after the 202, per target with the endpoint's first; failures kept as
 * transform_failed and delivered by a resend or a bulk retry once fixed; versions, restore, the preview, and one
 * account's endless loop beside another account's traffic.
 */
let stack: Stack;
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await TestReceiver.start();
  stack = await startStack('transform');
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

type Scope = { endpointId: string; targetId?: string };

async function endpointWith(
  settings: Partial<EndpointCreate> = {},
  targets = 1,
  client: RelayClient = stack.client,
): Promise<{ endpointId: string; targetIds: string[] }> {
  const created = await must(client.POST('/v1/endpoints', { body: { name: 'shop', ...settings } }));
  const targetIds: string[] = [];
  for (let i = 0; i < targets; i += 1) {
    const t = await must(
      client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId: created.id } },
        body: {
          kind: 'webhook',
          name: `partner ${i}`,
          config: { url: receiver.url(), enforce_https: false, forward_headers: { mode: 'all' } },
        },
      }),
    );
    targetIds.push(t.id);
  }
  return { endpointId: created.id, targetIds };
}

const save = (s: Scope, code: string, client: RelayClient = stack.client) =>
  s.targetId
    ? must(
        client.PUT('/v1/endpoints/{endpointId}/targets/{targetId}/transformation', {
          params: { path: { endpointId: s.endpointId, targetId: s.targetId } },
          body: { code },
        }),
      )
    : must(
        client.PUT('/v1/endpoints/{endpointId}/transformation', {
          params: { path: { endpointId: s.endpointId } },
          body: { code },
        }),
      );

async function send(
  endpointId: string,
  body: string,
  contentType: string | null = 'application/json',
  query = '',
): Promise<string> {
  const res = await fetch(`${stack.services['ingest-gateway']!.url}/relay/${endpointId}${query}`, {
    method: 'POST',
    headers: contentType ? { 'content-type': contentType } : {},
    body: contentType ? body : undefined,
  });
  expect(res.status).toBe(202);
  return res.headers.get('x-relay-event-id')!;
}

const deliveriesOf = (eventId: string): CapturedRequest[] =>
  receiver.requests.filter((q) => q.headers['x-relay-event-id'] === eventId);

const delivered = (eventId: string, count = 1) =>
  eventually(async () => deliveriesOf(eventId).length >= count && deliveriesOf(eventId), 20000, `${eventId} delivered`);

const rowWhen = (eventId: string, ok: (row: ActivityRow) => boolean, what: string, client = stack.client) =>
  eventually(
    async () => {
      const res = await client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } });
      return res.data && ok(res.data) ? res.data : undefined;
    },
    20000,
    what,
  );

const settled = (eventId: string, client = stack.client) =>
  rowWhen(
    eventId,
    (r) => r.status !== 'pending' && r.deliveries.length === r.target_count,
    `${eventId} settled`,
    client,
  );

const json = (q: CapturedRequest): unknown => JSON.parse(q.body.toString('utf8'));

describe('what a transformation changes', () => {
  it('reshapes the body and sets a header; the attempt records the version that ran', async () => {
    const { endpointId } = await endpointWith();
    await save(
      { endpointId },
      `(request, context) => ({
        ...request,
        headers: { ...request.headers, 'x-shop-event': context.event_id, 'x-provider': String(context.provider) },
        body: { id: request.body.id, total: request.body.amount / 100, endpoint: context.endpoint.name },
      })`,
    );
    const eventId = await send(endpointId, JSON.stringify({ id: 'ch_1', amount: 1250, noise: 'x' }));
    const [got] = await delivered(eventId);
    expect(json(got!)).toEqual({ id: 'ch_1', total: 12.5, endpoint: 'shop' });
    expect(got!.headers['x-shop-event']).toBe(eventId);
    expect(got!.headers['content-type']).toBe('application/json');
    const row = await settled(eventId);
    expect(row.status).toBe('completed');
    expect(row.deliveries[0]!.attempts[0]!.transform).toEqual({
      versions: [{ scope: 'endpoint', version: 1 }],
      logs: [],
    });
  });

  it('composes: the endpoint’s transformation, then each target’s own; a target without one gets the endpoint’s result', async () => {
    const { endpointId, targetIds } = await endpointWith({}, 2);
    await save({ endpointId }, `(r) => ({ ...r, body: { n: r.body.n * 10 } })`);
    await save(
      { endpointId, targetId: targetIds[0] },
      `(r) => { console.log('n is', r.body.n); return { ...r, body: { n: r.body.n + 1 } } }`,
    );
    const eventId = await send(endpointId, '{"n":4}');
    const got = await delivered(eventId, 2);
    const byTarget = new Map(
      (await settled(eventId)).deliveries.map((d) => [d.target_id, d.attempts[0]!.transform] as const),
    );
    expect(got.map(json).sort((a, b) => (a as { n: number }).n - (b as { n: number }).n)).toEqual([
      { n: 40 },
      { n: 41 },
    ]);
    expect(byTarget.get(targetIds[0]!)).toEqual({
      versions: [
        { scope: 'endpoint', version: 1 },
        { scope: 'target', version: 1 },
      ],
      logs: ['[target v1] n is 40'],
    });
    expect(byTarget.get(targetIds[1]!)).toEqual({ versions: [{ scope: 'endpoint', version: 1 }], logs: [] });
  });

  it('null drops the event for that scope: recorded as dropped, nothing sent, the row completed', async () => {
    const { endpointId, targetIds } = await endpointWith({}, 2);
    await save({ endpointId, targetId: targetIds[0] }, `(r) => (r.body.type === 'ping' ? null : r)`);
    const eventId = await send(endpointId, '{"type":"ping"}');
    await delivered(eventId, 1);
    const row = await settled(eventId);
    const states = new Map(row.deliveries.map((d) => [d.target_id, d.state]));
    expect([states.get(targetIds[0]!), states.get(targetIds[1]!)]).toEqual(['dropped', 'delivered']);
    expect(row.status).toBe('completed');
    expect(deliveriesOf(eventId)).toHaveLength(1);
  });

  it('a path and query it sets are where a webhook target delivers, beneath its URL; left as received, the URL as configured', async () => {
    const { endpointId, targetIds } = await endpointWith({}, 2);
    await save({ endpointId }, `(r) => ({ ...r, body: { id: r.body.id, path: r.path } })`);
    await save(
      { endpointId, targetId: targetIds[0] },
      `(r) => ({ ...r, path: '/orders/' + r.body.id, query: { ...r.query, kind: 'charge', tag: ['a', 'b'] } })`,
    );
    const eventId = await send(endpointId, '{"id":"ch_1"}', 'application/json', '?src=shop');
    const got = await delivered(eventId, 2);
    expect(got.map((q) => q.url).sort()).toEqual(['/hook', '/hook/orders/ch_1?src=shop&kind=charge&tag=a&tag=b']);
    expect(got.map(json)).toEqual([
      { id: 'ch_1', path: `/relay/${endpointId}` },
      { id: 'ch_1', path: `/relay/${endpointId}` },
    ]);
  });

  it.each([
    ['json', 'application/json', '{"a":[1,2]}', '', { a: [1, 2] }],
    ['form', 'application/x-www-form-urlencoded', 'a=1&b=2&b=3', '', { a: '1', b: ['2', '3'] }],
    ['text', 'text/plain', 'hello', '', 'hello'],
    ['xml', 'application/xml', '<a>1</a>', '', '<a>1</a>'],
    ['query', null, '', '?order=42&item=a', { order: '42', item: 'a' }],
  ] as const)('payload format %s: the body as the function sees it', async (format, type, body, query, seen) => {
    const { endpointId } = await endpointWith({ payload_format: format });
    await save(
      { endpointId },
      `(r) => ({ ...r, headers: { 'content-type': 'application/json' }, body: { seen: r.body } })`,
    );
    const eventId = await send(endpointId, body, type, query);
    const [got] = await delivered(eventId);
    expect(json(got!)).toEqual({ seen });
  });

  it('payload format query_base64_json: the decoded document', async () => {
    const { endpointId } = await endpointWith({
      payload_format: 'query_base64_json',
      query_param_name: 'p',
      query_param_required: true,
    });
    await save({ endpointId }, `(r) => ({ ...r, body: { seen: r.body } })`);
    const doc = Buffer.from(JSON.stringify({ order: { id: 7 } })).toString('base64');
    const eventId = await send(endpointId, '', null, `?p=${encodeURIComponent(doc)}`);
    const [got] = await delivered(eventId);
    expect(json(got!)).toEqual({ seen: { order: { id: 7 } } });
  });
});

describe('failures are outcomes: kept, then delivered once fixed', () => {
  it.each([
    [
      'a throw',
      `(r) => {\n  if (r.body.n) {\n    throw new Error('no n allowed')\n  }\n  return r\n}`,
      /endpoint transformation v1, line 3: Error: no n allowed/,
    ],
    ['a timeout', `(r) => { for (;;) {} }`, /endpoint transformation v1.*interrupted/],
    [
      'an oversize result',
      `(r) => ({ ...r, body: 'x'.repeat(2 * 1024 * 1024) })`,
      /the result is \d+ bytes; at most 1048576/,
    ],
    ['an invalid result', `(r) => ({ ...r, headers: { 'x-a': 1 } })`, /invalid result: headers.x-a must be a string/],
    ['a path that climbs', `(r) => ({ ...r, path: '/a/%2e%2e/admin' })`, /invalid result: path holds a \.\. segment/],
  ])('%s → TRANSFORM_FAILED kept; fixed and resent → delivered exactly once', async (_what, broken, message) => {
    const { endpointId, targetIds } = await endpointWith();
    await save({ endpointId }, broken);
    const eventId = await send(endpointId, '{"n":1}');
    const failed = await settled(eventId);
    expect(failed.status).toBe('errors');
    expect(failed.deliveries[0]!.state).toBe('transform_failed');
    expect(failed.deliveries[0]!.attempts[0]!.error).toMatch(/^TRANSFORM_FAILED: /);
    expect(failed.deliveries[0]!.attempts[0]!.error).toMatch(message);
    expect(deliveriesOf(eventId)).toEqual([]);

    await save({ endpointId }, `(r) => ({ ...r, body: { fixed: r.body.n } })`);
    const resent = await eventually(
      async () => {
        const res = await stack.client.POST('/v1/activity/{eventId}/resend', {
          params: { path: { eventId } },
          body: { target_id: targetIds[0]! },
        });
        return res.error?.code === 'payload_not_stored' ? undefined : res;
      },
      10000,
      'the payload stored',
    );
    expect(resent.response.status).toBe(202);
    const [got] = await delivered(eventId);
    expect(json(got!)).toEqual({ fixed: 1 });
    const row = await rowWhen(eventId, (r) => r.status === 'completed', 'the resent delivery reported');
    const resentDelivery = row.deliveries.find((d) => d.state === 'delivered')!;
    expect(resentDelivery.attempts[0]!.transform?.versions).toEqual([{ scope: 'endpoint', version: 2 }]);
    // the barrier: a later event delivered, and still one delivery of the resent one
    await delivered(await send(endpointId, '{"n":2}'));
    expect(deliveriesOf(eventId)).toHaveLength(1);
  });
});

describe('failures are outcomes: a bulk retry after the fix', () => {
  it('several events TRANSFORM_FAILED; the code fixed; the preview counts them, one bulk retry delivers each exactly once', async () => {
    const from = new Date(Date.now() - 60_000).toISOString();
    const { endpointId } = await endpointWith();
    await save({ endpointId }, `(r) => { throw new Error('not ready') }`);
    const ids = await Promise.all([1, 2, 3, 4].map((n) => send(endpointId, `{"n":${n}}`)));
    for (const id of ids) expect((await settled(id)).deliveries[0]!.state).toBe('transform_failed');

    await save({ endpointId }, `(r) => ({ ...r, body: { fixed: r.body.n } })`);
    const filter = { endpoint_id: endpointId, status: 'errors' as const, from };
    // count first, as the dashboard's "Retry failed deliveries" does (listed and payloads stored)
    const counted = await eventually(
      async () => {
        const p = await must(stack.client.POST('/v1/bulk-retries/preview', { body: filter }));
        if (p.deliveries === ids.length) return p;
        // previews are limited to 30 a minute per account
        await new Promise((resolve) => setTimeout(resolve, 1000));
        return undefined;
      },
      20000,
      'the failed rows counted',
    );
    expect(counted).toMatchObject({
      events: ids.length,
      complete: true,
      held_targets: [],
      counts: { rows_scanned: ids.length, skipped_no_payload: 0, skipped_not_failed: 0 },
    });
    const job = await must(stack.client.POST('/v1/bulk-retries', { body: filter }));
    const done = await eventually(
      async () => {
        const j = await must(stack.client.GET('/v1/bulk-retries/{jobId}', { params: { path: { jobId: job.id } } }));
        if (j.state === 'done') return j;
        await new Promise((resolve) => setTimeout(resolve, 250));
        return undefined;
      },
      30000,
      'the bulk retry done',
    );
    expect(done.progress).toMatchObject({ rows_retried: ids.length, deliveries_queued: ids.length });

    for (const [i, id] of ids.entries()) {
      expect((await delivered(id)).map(json)).toEqual([{ fixed: i + 1 }]);
      const row = await rowWhen(id, (r) => r.status === 'completed', `${id} completed`);
      const retried = row.deliveries.find((d) => d.state === 'delivered')!;
      expect(retried.attempts[0]!.transform?.versions).toEqual([{ scope: 'endpoint', version: 2 }]);
    }
    // the barrier: a later event delivered, and still one delivery of each retried one
    await delivered(await send(endpointId, '{"n":9}'));
    expect(ids.map((id) => deliveriesOf(id).length)).toEqual(ids.map(() => 1));
  });
});

describe('versions', () => {
  it('each save is a version; a restore saves an old one again as the newest; rows say which ran; both audited', async () => {
    const { endpointId } = await endpointWith();
    await save({ endpointId }, `(r) => ({ ...r, body: { v: 'one' } })`);
    await save({ endpointId }, `(r) => ({ ...r, body: { v: 'two' } })`);
    const restored = await must(
      stack.client.POST('/v1/endpoints/{endpointId}/transformation/versions/{version}/restore', {
        params: { path: { endpointId, version: '1' } },
      }),
    );
    expect(restored).toMatchObject({ version: 3, restored_from: 1, code: `(r) => ({ ...r, body: { v: 'one' } })` });
    const view = await must(
      stack.client.GET('/v1/endpoints/{endpointId}/transformation', { params: { path: { endpointId } } }),
    );
    expect(view).toMatchObject({ scope: 'endpoint', active_version: 3, latest_version: 3 });
    expect(view.versions.map((v) => [v.version, v.restored_from])).toEqual([
      [3, 1],
      [2, null],
      [1, null],
    ]);
    const eventId = await send(endpointId, '{}');
    const [got] = await delivered(eventId);
    expect(json(got!)).toEqual({ v: 'one' });
    const row = await settled(eventId);
    expect(row.deliveries[0]!.attempts[0]!.transform?.versions).toEqual([{ scope: 'endpoint', version: 3 }]);
    const audit = await must(
      stack.client.GET('/v1/endpoints/{endpointId}/audit', { params: { path: { endpointId } } }),
    );
    expect(audit.data.map((a) => a.action).filter((a) => a.startsWith('transformation'))).toEqual([
      'transformation_restored',
      'transformation_saved',
      'transformation_saved',
    ]);

    // removed: nothing runs; the versions stay
    await must(stack.client.DELETE('/v1/endpoints/{endpointId}/transformation', { params: { path: { endpointId } } }));
    const plain = await send(endpointId, '{"as":"sent"}');
    expect(json((await delivered(plain))[0]!)).toEqual({ as: 'sent' });
  });

  it('a viewer key reads transformations but cannot save one (403)', async () => {
    const { endpointId } = await endpointWith();
    const key = await must(stack.client.POST('/v1/api-keys', { body: { role: 'viewer', name: 'ro' } }));
    const viewer = stack.clientAs(key.secret);
    const read = await viewer.GET('/v1/endpoints/{endpointId}/transformation', { params: { path: { endpointId } } });
    expect(read.response.status).toBe(200);
    const write = await viewer.PUT('/v1/endpoints/{endpointId}/transformation', {
      params: { path: { endpointId } },
      body: { code: '(r) => r' },
    });
    expect(write.response.status).toBe(403);
  });
});

describe('preview', () => {
  it('runs a draft on the endpoint’s stored requests: input, output, diff, logs, errors — and delivers nothing', async () => {
    const { endpointId } = await endpointWith();
    const first = await send(endpointId, '{"n":1}');
    const second = await send(endpointId, '{"n":0}');
    await delivered(first);
    await delivered(second);
    const previewed = await eventually(
      async () => {
        const res = await must(
          stack.client.POST('/v1/endpoints/{endpointId}/transformations/preview', {
            params: { path: { endpointId } },
            body: {
              code: `(r) => {\n  console.log('n', r.body.n)\n  if (!r.body.n) throw new Error('zero')\n  return { ...r, body: { m: r.body.n } }\n}`,
            },
          }),
        );
        return res.data.length === 2 && res.data.every((x) => x.input) ? res.data : undefined;
      },
      10000,
      'both stored requests previewed',
    );
    const byId = new Map(previewed.map((p) => [p.event_id, p]));
    expect(byId.get(first)).toMatchObject({
      output: { body: { m: 1 } },
      dropped: false,
      logs: ['n 1'],
      error: null,
      diff: { total: 2 },
    });
    expect(byId.get(second)).toMatchObject({ output: null, error: 'Error: zero', line: 3, logs: ['n 0'] });
    // the barrier: a later event delivered, and each earlier one still delivered once
    await delivered(await send(endpointId, '{"n":9}'));
    expect([deliveriesOf(first).length, deliveriesOf(second).length]).toEqual([1, 1]);
  });
});

describe('isolation', () => {
  it('account A’s endless loop runs while account B sends: every B event is delivered, A’s are TRANSFORM_FAILED', async () => {
    const b = await bootstrapAccount(stack.env, ['--account', 'b']);
    const clientB = stack.clientAs(b.api_key);
    const a = await endpointWith();
    await save({ endpointId: a.endpointId }, `(r) => { for (;;) {} }`);
    const other = await endpointWith({}, 1, clientB);
    await save({ endpointId: other.endpointId }, `(r) => ({ ...r, body: { b: r.body.i } })`, clientB);
    const sent = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        Promise.all([send(a.endpointId, `{"i":${i}}`), send(other.endpointId, `{"i":${i}}`)]),
      ),
    );
    for (const [, bEvent] of sent) await delivered(bEvent!);
    expect(sent.map(([, bEvent]) => json(deliveriesOf(bEvent!)[0]!))).toEqual(sent.map((_, i) => ({ b: i })));
    for (const [aEvent] of sent) expect((await settled(aEvent!)).deliveries[0]!.state).toBe('transform_failed');
  });
});
