import { must } from '@relay/client';
import { MAX_BULK_RERUN } from '../../../services/management-api/src/domain/bulk-rerun';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';
import { eventId, pipelineOn, request as requestRow } from '../../../libs/activity-log/conformance/fixtures';

/**
 * What a re-run refuses before any gateway is asked (docs/management-api.md "Re-run"): rows that
 * kept no request, each with its own 409 code and a message saying why.
 */
let fx: ManagementFixture;
const ids = { accepted: '', unauthenticated: '', overBound: '', notYet: '' };
let crowded = '';

beforeAll(async () => {
  fx = await startManagement('rerunrefusals');
  const endpoint = (await must(fx.client.POST('/v1/endpoints', { body: { name: 'rerun refusals' } }))).id;
  const base = { account_id: fx.accountId, endpoint_id: endpoint };
  ids.accepted = eventId('rerun_accepted');
  ids.unauthenticated = eventId('rerun_auth');
  ids.overBound = eventId('rerun_bound');
  ids.notYet = eventId('rerun_notyet');
  await pipelineOn(fx.store).write([
    requestRow(ids.accepted, { ...base, target_count: 1 }),
    requestRow(ids.unauthenticated, { ...base, outcome: 'AUTH_FAILED', reason: 'no bearer token' }),
    requestRow(ids.overBound, { ...base, outcome: 'FIELD_VALIDATION_FAILED', quarantine: 'bound_reached' }),
    // kept, its request still on its way to the log
    requestRow(ids.notYet, { ...base, outcome: 'FIELD_VALIDATION_FAILED', quarantine: 'kept' }),
  ]);
  // one more quarantined request than a bulk re-run takes
  crowded = (await must(fx.client.POST('/v1/endpoints', { body: { name: 'crowded' } }))).id;
  const start = Date.now() - 60_000;
  await pipelineOn(fx.store).write(
    Array.from({ length: MAX_BULK_RERUN + 1 }, (_, i) =>
      requestRow(eventId(`crowded_${i}`, start + i * 100), {
        account_id: fx.accountId,
        endpoint_id: crowded,
        outcome: 'REQUEST_BODY_FILTER_FAILED',
        quarantine: 'kept',
      }),
    ),
  );
});
afterAll(() => fx.close());

const rerun = (id: string) => fx.client.POST('/v1/activity/{eventId}/rerun', { params: { path: { eventId: id } } });

describe('a re-run of a row that kept no request is refused with a reason', () => {
  it('an accepted request, or one refused before authentication passed: 409 not_quarantined', async () => {
    for (const id of [ids.accepted, ids.unauthenticated]) {
      const res = await rerun(id);
      expect([res.response.status, res.error?.code]).toEqual([409, 'not_quarantined']);
      expect(res.error?.message).toMatch(/after it passed authentication/);
    }
  });

  it("refused past the account's hourly bound: 409 quarantine_bound_reached naming the bound", async () => {
    const res = await rerun(ids.overBound);
    expect([res.response.status, res.error?.code]).toEqual([409, 'quarantine_bound_reached']);
    expect(res.error?.message).toMatch(/QUARANTINE_PER_ACCOUNT_PER_HOUR/);
  });

  it('kept, but not in the log yet: 409 payload_not_stored (retry in a few seconds)', async () => {
    const res = await rerun(ids.notYet);
    expect([res.response.status, res.error?.code]).toEqual([409, 'payload_not_stored']);
  });

  it('a row of another account, or none: 404', async () => {
    const res = await rerun(eventId('rerun_none'));
    expect([res.response.status, res.error?.code]).toEqual([404, 'not_found']);
  });
});

describe('a bulk re-run is bounded: counted first, refused whole past its bound', () => {
  it(`more than ${MAX_BULK_RERUN} quarantined requests: the preview says incomplete, the run is 409 rerun_set_too_large and runs nothing`, async () => {
    const preview = await must(fx.client.POST('/v1/reruns/preview', { body: { endpoint_id: crowded } }));
    expect(preview).toMatchObject({ requests: MAX_BULK_RERUN, complete: false, max_requests: MAX_BULK_RERUN });
    const res = await fx.client.POST('/v1/reruns', { body: { endpoint_id: crowded } });
    expect([res.response.status, res.error?.code]).toEqual([409, 'rerun_set_too_large']);
    expect(res.error?.message).toMatch(/Narrow it with endpoint_id, from or to/);
  });

  it('a filter that cannot be read is a 400 naming the field; an endpoint of another account is 404', async () => {
    const bad = await fx.client.POST('/v1/reruns/preview', { body: { from: 'yesterday', target_id: 'tg_x' } as never });
    expect(bad.response.status).toBe(400);
    const fields = bad.error && 'errors' in bad.error ? (bad.error.errors ?? []).map((e) => e.field) : [];
    expect(fields.sort()).toEqual(['from', 'target_id']);
    const other = await fx.client.POST('/v1/reruns', { body: { endpoint_id: 'ep_000000000000000000000' } });
    expect([other.response.status, other.error?.code]).toEqual([404, 'not_found']);
  });
});
