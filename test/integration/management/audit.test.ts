import { errorOf, must } from '@relay/client';
import type { EndpointCreate, EndpointPatch } from '@relay/client';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

let fx: ManagementFixture;
let actor: string;
beforeAll(async () => {
  fx = await startManagement('mgmt-audit');
  actor = fx.apiKey.slice(0, 7);
});
afterAll(async () => {
  await fx?.close();
});

/** the endpoint controls by their action, as the document writes their paths */
const CONTROLS = {
  disable: '/v1/endpoints/{endpointId}/disable',
  enable: '/v1/endpoints/{endpointId}/enable',
  pause: '/v1/endpoints/{endpointId}/pause',
  resume: '/v1/endpoints/{endpointId}/resume',
} as const;
type Control = keyof typeof CONTROLS;

const at = (endpointId: string) => ({ params: { path: { endpointId } } });
const newEndpoint = async (body: Partial<EndpointCreate> = {}): Promise<string> =>
  (await must(fx.client.POST('/v1/endpoints', { body: { name: 'e', ...body } }))).id;
const control = (endpointId: string, action: Control) => must(fx.client.POST(CONTROLS[action], at(endpointId)));
const patch = (endpointId: string, body: EndpointPatch) =>
  must(fx.client.PATCH('/v1/endpoints/{endpointId}', { ...at(endpointId), body }));
const audit = (endpointId: string, query: { limit?: number; before?: string } = {}) =>
  fx.client.GET('/v1/endpoints/{endpointId}/audit', { params: { path: { endpointId }, query } });
const auditOf = async (id: string): Promise<string[]> => (await must(audit(id))).data.map((a) => a.action);
const iso = (offsetMs: number): string => new Date(Date.now() + offsetMs).toISOString();

describe('spec "States and transitions": a manual disable, enable, pause or resume is recorded', () => {
  it.each([
    ['disable', { enabled: false }, { state: 'disabled' }, 'disabled', {}],
    ['enable', { enabled: true }, { state: 'enabled' }, 'enabled', { enabled: false }],
    ['pause', { paused: true }, { state: 'paused', paused_by: 'manual', resumes_at: null }, 'paused', {}],
    ['resume', { paused: false }, { state: 'enabled' }, 'resumed', { paused: true }],
  ] as const)(
    'POST /v1/endpoints/:id/%s sets the control and writes one audit row with the key prefix as actor',
    async (action, shown, availability, recorded, start) => {
      const id = await newEndpoint(start);
      const res = await control(id, action);
      expect(res).toMatchObject({ ...shown, availability, revision: 2 });
      const rows = (await must(audit(id))).data;
      expect(rows[0]).toEqual({
        id: expect.stringMatching(/^aud_/),
        endpoint_id: id,
        action: recorded,
        actor,
        actor_name: null,
        source_ip: expect.any(String),
        at: expect.any(String),
        key_id: null,
        details: null,
      });
      expect(rows.slice(1).map((a) => a.action)).toEqual(['endpoint_created']);

      // repeating it changes nothing: no new row, no new revision
      const again = await control(id, action);
      expect(again.revision).toBe(2);
      expect(await auditOf(id)).toEqual([recorded, 'endpoint_created']);
    },
  );

  it('a PATCH of enabled or paused is recorded the same way, one row per control that changed', async () => {
    const id = await newEndpoint();
    await patch(id, { enabled: false, paused: true });
    await patch(id, { enabled: false, name: 'no state change' });
    await patch(id, { paused: false });
    await patch(id, { enabled: true });
    expect(await auditOf(id)).toEqual([
      'enabled',
      'resumed',
      'endpoint_updated',
      'paused',
      'disabled',
      'endpoint_created',
    ]);
  });

  it('concurrent pauses record a single row', async () => {
    const id = await newEndpoint();
    const results = await Promise.all(Array.from({ length: 6 }, () => control(id, 'pause')));
    expect(results.every((r) => r.paused === true)).toBe(true);
    expect(await auditOf(id)).toEqual(['paused', 'endpoint_created']);
  });

  it('concurrent changes of different settings all land (no lost update), each audited once', async () => {
    const id = await newEndpoint();
    await Promise.all([
      control(id, 'pause'),
      patch(id, { rate_limit_per_minute: 42 }),
      patch(id, { enabled: false }),
      patch(id, { paused: true }),
    ]);
    expect(await must(fx.client.GET('/v1/endpoints/{endpointId}', at(id)))).toMatchObject({
      paused: true,
      enabled: false,
      rate_limit_per_minute: 42,
      revision: 4,
    });
    expect((await auditOf(id)).sort()).toEqual(['disabled', 'endpoint_created', 'endpoint_updated', 'paused']);
  });

  it('a row is kept per endpoint; unknown actions are 404', async () => {
    const a = await newEndpoint();
    const b = await newEndpoint();
    await control(a, 'pause');
    expect(await auditOf(b)).toEqual(['endpoint_created']);
    // raw: an action the document does not have, which the typed client cannot name
    expect((await fx.api('post', `/v1/endpoints/${a}/archive`)).status).toBe(404);
  });

  it('pages newest first with limit and before', async () => {
    const id = await newEndpoint();
    for (const action of ['pause', 'resume', 'disable', 'enable', 'pause'] as const) await control(id, action);
    const first = await must(audit(id, { limit: 2 }));
    expect(first.data.map((a) => a.action)).toEqual(['paused', 'enabled']);
    const second = await must(audit(id, { limit: 2, before: first.next_before! }));
    expect(second.data.map((a) => a.action)).toEqual(['disabled', 'resumed']);
    const bad = await audit(id, { limit: 0, before: 'yesterday' });
    const refused = errorOf(bad.response, bad.error);
    expect(refused.status).toBe(400);
    expect(refused.errors.map((e) => e.field)).toEqual(['limit', 'before']);
  });
});

describe('scheduled pauses are never recorded; editing the windows is', () => {
  it('an active window pauses the endpoint until it ends; an expired one does not; only the edits are rows', async () => {
    const id = await newEndpoint();
    const ends = iso(3_600_000);
    const active = await patch(id, { maintenance_windows: [{ starts_at: iso(-60_000), ends_at: ends }] });
    expect(active.paused).toBe(false);
    expect(active.availability).toEqual({ state: 'paused', paused_by: 'maintenance_window', resumes_at: ends });

    const expired = await patch(id, {
      maintenance_windows: [{ starts_at: iso(-7_200_000), ends_at: iso(-3_600_000) }],
    });
    expect(expired.availability).toEqual({ state: 'enabled' });
    await patch(id, { maintenance_windows: [] });
    // three saves of maintenance_windows: three rows naming the field, no paused/resumed row
    expect(await auditOf(id)).toEqual(['endpoint_updated', 'endpoint_updated', 'endpoint_updated', 'endpoint_created']);
    const rows = (await must(audit(id))).data;
    expect(rows[0]!.details).toEqual({ fields: ['maintenance_windows'], secrets_changed: [] });
  });

  it('resume ends a manual pause only: during a window the endpoint stays paused by it', async () => {
    const id = await newEndpoint({ maintenance_windows: [{ starts_at: iso(-60_000), ends_at: iso(3_600_000) }] });
    await control(id, 'pause');
    const resumed = await control(id, 'resume');
    expect(resumed).toMatchObject({
      paused: false,
      availability: { state: 'paused', paused_by: 'maintenance_window' },
    });
    expect(await auditOf(id)).toEqual(['resumed', 'paused', 'endpoint_created']);
  });
});
