import { must } from '@relay/client';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';
import { eventId, pipelineOn, request as requestRow } from '../../../libs/activity-log/conformance/fixtures';

/**
 * The order of a resend's refusals (docs/management-api.md "Resend"): what the request names is
 * checked before the stored payload. A row is written a moment before its payload (they travel
 * apart), so in that moment a target of another endpoint must still be 404, not 409
 * `payload_not_stored` — a CI run of test/e2e/replay.test.ts once asked in that moment.
 */
let fx: ManagementFixture;
let accepted: string;
let ownTarget: string;
let otherTarget: string;

beforeAll(async () => {
  fx = await startManagement('resendorder');
  const endpoint = (await must(fx.client.POST('/v1/endpoints', { body: { name: 'resend order' } }))).id;
  const other = (await must(fx.client.POST('/v1/endpoints', { body: { name: 'another' } }))).id;
  const target = (endpointId: string) =>
    must(
      fx.client.POST('/v1/endpoints/{endpointId}/targets', {
        params: { path: { endpointId } },
        body: { kind: 'webhook', name: 'r', config: { url: 'http://127.0.0.1:9/hook', enforce_https: false } },
      }),
    );
  ownTarget = (await target(endpoint)).id;
  otherTarget = (await target(other)).id;
  // an accepted request's row, its payload not (yet) in the log
  accepted = eventId('resend_order');
  await pipelineOn(fx.store).write([
    requestRow(accepted, { account_id: fx.accountId, endpoint_id: endpoint, target_count: 1 }),
  ]);
});
afterAll(() => fx.close());

const resend = (body?: { target_id: string }) =>
  fx.client.POST('/v1/activity/{eventId}/resend', {
    params: { path: { eventId: accepted } },
    ...(body ? { body } : {}),
  });

describe('a resend asked before the payload reached the log', () => {
  it('names a target of another endpoint: 404 not_found, whatever the payload', async () => {
    const res = await resend({ target_id: otherTarget });
    expect([res.response.status, res.error?.code]).toEqual([404, 'not_found']);
  });

  it("names the endpoint's own target, or none: 409 payload_not_stored (retry in a few seconds)", async () => {
    for (const res of [await resend({ target_id: ownTarget }), await resend()])
      expect([res.response.status, res.error?.code]).toEqual([409, 'payload_not_stored']);
  });
});
