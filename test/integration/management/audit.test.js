"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const fixture_1 = require("./fixture");
let fx;
let actor;
beforeAll(async () => {
    fx = await (0, fixture_1.startManagement)('mgmt-audit');
    actor = fx.apiKey.slice(0, 7);
});
afterAll(async () => {
    await fx?.close();
});
const newEndpoint = async (body = {}) => (await fx.api('post', '/v1/endpoints', { name: 'e', ...body })).body.id;
const auditOf = async (id) => {
    const res = await fx.api('get', `/v1/endpoints/${id}/audit`);
    expect(res.status).toBe(200);
    return res.body.data.map((a) => a.action);
};
const iso = (offsetMs) => new Date(Date.now() + offsetMs).toISOString();
describe('spec "States and transitions": a manual disable, enable, pause or resume is recorded', () => {
    it.each([
        ['disable', { enabled: false }, { state: 'disabled' }, 'disabled', {}],
        ['enable', { enabled: true }, { state: 'enabled' }, 'enabled', { enabled: false }],
        ['pause', { paused: true }, { state: 'paused', paused_by: 'manual', resumes_at: null }, 'paused', {}],
        ['resume', { paused: false }, { state: 'enabled' }, 'resumed', { paused: true }],
    ])('POST /v1/endpoints/:id/%s sets the control and writes one audit row with the key prefix as actor', async (action, shown, availability, recorded, start) => {
        const id = await newEndpoint(start);
        const res = await fx.api('post', `/v1/endpoints/${id}/${action}`);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ ...shown, availability, revision: 2 });
        const audit = await fx.api('get', `/v1/endpoints/${id}/audit`);
        expect(audit.body.data[0]).toEqual({ id: expect.stringMatching(/^aud_/), endpoint_id: id, action: recorded, actor, actor_name: null, source_ip: expect.any(String), at: expect.any(String), key_id: null, details: null });
        expect(audit.body.data.slice(1).map((a) => a.action)).toEqual(['endpoint_created']);
        // repeating it changes nothing: no new row, no new revision
        const again = await fx.api('post', `/v1/endpoints/${id}/${action}`);
        expect(again.body.revision).toBe(2);
        expect(await auditOf(id)).toEqual([recorded, 'endpoint_created']);
    });
    it('a PATCH of enabled or paused is recorded the same way, one row per control that changed', async () => {
        const id = await newEndpoint();
        await fx.api('patch', `/v1/endpoints/${id}`, { enabled: false, paused: true });
        await fx.api('patch', `/v1/endpoints/${id}`, { enabled: false, name: 'no state change' });
        await fx.api('patch', `/v1/endpoints/${id}`, { paused: false });
        await fx.api('patch', `/v1/endpoints/${id}`, { enabled: true });
        expect(await auditOf(id)).toEqual(['enabled', 'resumed', 'endpoint_updated', 'paused', 'disabled', 'endpoint_created']);
    });
    it('concurrent pauses record a single row', async () => {
        const id = await newEndpoint();
        const results = await Promise.all(Array.from({ length: 6 }, () => fx.api('post', `/v1/endpoints/${id}/pause`)));
        expect(results.every((r) => r.status === 200 && r.body.paused === true)).toBe(true);
        expect(await auditOf(id)).toEqual(['paused', 'endpoint_created']);
    });
    it('concurrent changes of different settings all land (no lost update), each audited once', async () => {
        const id = await newEndpoint();
        await Promise.all([
            fx.api('post', `/v1/endpoints/${id}/pause`),
            fx.api('patch', `/v1/endpoints/${id}`, { rate_limit_per_minute: 42 }),
            fx.api('patch', `/v1/endpoints/${id}`, { enabled: false }),
            fx.api('patch', `/v1/endpoints/${id}`, { paused: true }),
        ]);
        expect((await fx.api('get', `/v1/endpoints/${id}`)).body).toMatchObject({ paused: true, enabled: false, rate_limit_per_minute: 42, revision: 4 });
        expect((await auditOf(id)).sort()).toEqual(['disabled', 'endpoint_created', 'endpoint_updated', 'paused']);
    });
    it('a row is kept per endpoint; unknown actions are 404', async () => {
        const a = await newEndpoint();
        const b = await newEndpoint();
        await fx.api('post', `/v1/endpoints/${a}/pause`);
        expect(await auditOf(b)).toEqual(['endpoint_created']);
        expect((await fx.api('post', `/v1/endpoints/${a}/archive`)).status).toBe(404);
    });
    it('pages newest first with limit and before', async () => {
        const id = await newEndpoint();
        for (const action of ['pause', 'resume', 'disable', 'enable', 'pause'])
            await fx.api('post', `/v1/endpoints/${id}/${action}`);
        const first = await fx.api('get', `/v1/endpoints/${id}/audit?limit=2`);
        expect(first.body.data.map((a) => a.action)).toEqual(['paused', 'enabled']);
        const second = await fx.api('get', `/v1/endpoints/${id}/audit?limit=2&before=${encodeURIComponent(first.body.next_before)}`);
        expect(second.body.data.map((a) => a.action)).toEqual(['disabled', 'resumed']);
        const bad = await fx.api('get', `/v1/endpoints/${id}/audit?limit=0&before=yesterday`);
        expect(bad.status).toBe(400);
        expect(bad.body.errors.map((e) => e.field)).toEqual(['limit', 'before']);
    });
});
describe('scheduled pauses are never recorded; editing the windows is', () => {
    it('an active window pauses the endpoint until it ends; an expired one does not; only the edits are rows', async () => {
        const id = await newEndpoint();
        const ends = iso(3_600_000);
        const active = await fx.api('patch', `/v1/endpoints/${id}`, { maintenance_windows: [{ starts_at: iso(-60_000), ends_at: ends }] });
        expect(active.status).toBe(200);
        expect(active.body.paused).toBe(false);
        expect(active.body.availability).toEqual({ state: 'paused', paused_by: 'maintenance_window', resumes_at: ends });
        const expired = await fx.api('patch', `/v1/endpoints/${id}`, { maintenance_windows: [{ starts_at: iso(-7_200_000), ends_at: iso(-3_600_000) }] });
        expect(expired.body.availability).toEqual({ state: 'enabled' });
        await fx.api('patch', `/v1/endpoints/${id}`, { maintenance_windows: [] });
        // three saves of maintenance_windows: three rows naming the field, no paused/resumed row
        expect(await auditOf(id)).toEqual(['endpoint_updated', 'endpoint_updated', 'endpoint_updated', 'endpoint_created']);
        const rows = (await fx.api('get', `/v1/endpoints/${id}/audit`)).body.data;
        expect(rows[0].details).toEqual({ fields: ['maintenance_windows'], secrets_changed: [] });
    });
    it('resume ends a manual pause only: during a window the endpoint stays paused by it', async () => {
        const id = await newEndpoint({ maintenance_windows: [{ starts_at: iso(-60_000), ends_at: iso(3_600_000) }] });
        await fx.api('post', `/v1/endpoints/${id}/pause`);
        const resumed = await fx.api('post', `/v1/endpoints/${id}/resume`);
        expect(resumed.body).toMatchObject({ paused: false, availability: { state: 'paused', paused_by: 'maintenance_window' } });
        expect(await auditOf(id)).toEqual(['resumed', 'paused', 'endpoint_created']);
    });
});
//# sourceMappingURL=audit.test.js.map