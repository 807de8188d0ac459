import { quarantineKey } from '@relay/contracts';
import { IngestHarness } from './harness';
import type { GatewayInstance } from './harness';
import { send } from './http';

/**
 * The account's hourly quarantine bound (docs/ingest.md "Quarantine") on the real gateway app
 * and Redis: past QUARANTINE_PER_ACCOUNT_PER_HOUR a refusal keeps only its row, marked
 * `bound_reached`; other accounts keep theirs.
 */
let h: IngestHarness;
let gw: GatewayInstance;
// the middle of this hour: every request counts in one hour, whenever the test runs
const HOUR_MS = 3_600_000;
const at = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS + HOUR_MS / 2);

beforeAll(async () => {
  h = await IngestHarness.start('quarantine');
  gw = await h.gateway({ quarantinePerHour: 2, clock: () => at });
});

afterAll(async () => {
  await h?.stop();
});

const refused = { body: '{"state":"open"}' };
const filtered = { body_filters: [{ kind: 'contains' as const, value: '"paid"' }] };

it("keeps the account's first refusals of the hour, then rows marked bound_reached; another account is not affected", async () => {
  const account = await h.account();
  const id = await h.endpoint(account, filtered);
  for (let i = 0; i < 3; i++) expect((await send(gw, id, refused)).json.code).toBe('request_body_filter_failed');
  const other = await h.endpoint(await h.account(), filtered);
  await send(gw, other, refused);
  await h.settle(gw);
  expect((await h.waitForRows(id, 3)).map((r) => r.quarantine)).toEqual(['kept', 'kept', 'bound_reached']);
  expect((await h.waitForRows(other, 1)).map((r) => r.quarantine)).toEqual(['kept']);
  // one counter per account and hour, gone after it
  const ttl = await h.redis.pttl(quarantineKey(h.namespace, account, at));
  expect(ttl).toBeGreaterThan(0);
  expect(ttl).toBeLessThanOrEqual(2 * HOUR_MS);
});
