import { createHmac } from 'node:crypto';
import type { InboundAuthSetting } from '@relay/endpoints';
import { ingest } from '../pipeline/ingest';
import { body, fakePorts, request, view } from '../pipeline/test-helpers';
import { providerDedupOf } from './delivery-id';

/** Where the id is read, and what a repeat gets. */

const github = (extra: Record<string, unknown> = {}): InboundAuthSetting =>
  ({ type: 'HMAC', preset: 'github', secrets: ['sealed:gh-secret'], ...extra }) as InboundAuthSetting;
const custom = (extra: Record<string, unknown>, dedup?: object): InboundAuthSetting =>
  ({
    type: 'HMAC',
    preset: 'custom',
    secrets: ['sealed:s'],
    custom: { algorithm: 'sha256', header: 'x-sig', encoding: 'hex', template: '{{body}}', ...extra },
    ...(dedup ? { dedup } : {}),
  }) as InboundAuthSetting;

describe('providerDedupOf: where the id is and whether dedup is on', () => {
  it.each([
    [
      'a preset with a header id (GitHub): on by default, 24 h',
      github(),
      { 'x-github-delivery': 'd-1' },
      {},
      { key: '\nx-github-delivery\nd-1', windowMs: 86_400_000, source: 'x-github-delivery' },
    ],
    [
      'a preset with a body id (Stripe)',
      { type: 'HMAC', preset: 'stripe', secrets: ['s'] },
      {},
      { id: 'evt_1' },
      { key: '\nbody id\nevt_1', windowMs: 86_400_000, source: 'body id' },
    ],
    [
      'the window from dedup.window_seconds',
      github({ dedup: { window_seconds: 600 } }),
      { 'x-github-delivery': 'd-1' },
      {},
      { key: '\nx-github-delivery\nd-1', windowMs: 600_000, source: 'x-github-delivery' },
    ],
    ['dedup turned off', github({ dedup: { enabled: false } }), { 'x-github-delivery': 'd-1' }, {}, null],
    [
      'a preset whose provider sends no id (Zoom)',
      { type: 'HMAC', preset: 'zoom', secrets: ['s'] },
      {},
      { id: 'x' },
      null,
    ],
    ['the id header missing', github(), {}, {}, null],
    ['an id that is not printable ASCII', github(), { 'x-github-delivery': 'd\u00e9' }, {}, null],
    ['custom: off unless enabled', custom({ id_header: 'X-Delivery' }), { 'x-delivery': 'a' }, {}, null],
    [
      'custom with id_header, enabled',
      custom({ id_header: 'X-Delivery' }, { enabled: true }),
      { 'x-delivery': 'a' },
      {},
      { key: '\nx-delivery\na', windowMs: 86_400_000, source: 'x-delivery' },
    ],
    [
      'custom with a JSON path to a number',
      custom({ id_json_path: 'data.seq' }, { enabled: true }),
      {},
      { data: { seq: 42 } },
      { key: '\nbody data.seq\n42', windowMs: 86_400_000, source: 'body data.seq' },
    ],
    [
      'a JSON path through a non-object',
      custom({ id_json_path: 'data.seq' }, { enabled: true }),
      {},
      { data: 'x' },
      null,
    ],
    ['not an HMAC setting', { type: 'NONE' }, { 'x-github-delivery': 'd-1' }, {}, null],
  ])('%s', (_name, setting, headers, data, expected) => {
    expect(providerDedupOf(setting as InboundAuthSetting, headers, data)).toEqual(expected);
  });
});

describe('a repeat of a delivery id in the pipeline', () => {
  const text = '{"zen":"Keep it logically awesome."}';
  const signed = (delivery: string, secret = 'gh-secret') =>
    request({
      headers: {
        'content-type': 'application/json',
        'x-github-delivery': delivery,
        'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(text).digest('hex')}`,
      },
    });

  it('is answered like an Idempotency-Key replay (the first event id), not delivered, and its row says DUPLICATE', async () => {
    const f = fakePorts(view({ inbound_auth: github() }));
    const first = await ingest(f.ports, signed('d-1'), body(text));
    const again = await ingest(f.ports, { ...signed('d-1'), eventId: 'evt_2' }, body(text));
    expect(first).toMatchObject({ accepted: true, eventId: 'evt_1', targetCount: 1 });
    expect(again).toEqual({ accepted: true, targetCount: 0, accountId: 'acc_1', eventId: 'evt_1', replayed: true });
    expect(f.published).toHaveLength(1);
    expect(f.rows.map((r) => [r.outcome, r.reason])).toEqual([
      ['ACCEPTED', null],
      ['DUPLICATE', 'duplicate of evt_1 (same x-github-delivery)'],
    ]);
  });

  it('a forged request with a known id fails its signature and does not touch the id; a genuine first delivery is not blocked by a forgery', async () => {
    const f = fakePorts(view({ inbound_auth: github() }));
    expect(await ingest(f.ports, signed('d-9', 'forged'), body(text))).toMatchObject({
      accepted: false,
      rejection: { outcome: 'AUTH_FAILED' },
    });
    expect(f.keys.size).toBe(0);
    expect(await ingest(f.ports, { ...signed('d-9'), eventId: 'evt_3' }, body(text))).toMatchObject({
      accepted: true,
      eventId: 'evt_3',
    });
  });

  it('another delivery id is another event', async () => {
    const f = fakePorts(view({ inbound_auth: github() }));
    await ingest(f.ports, signed('d-1'), body(text));
    expect(await ingest(f.ports, { ...signed('d-2'), eventId: 'evt_2' }, body(text))).toMatchObject({
      accepted: true,
      eventId: 'evt_2',
      targetCount: 1,
    });
  });
});
