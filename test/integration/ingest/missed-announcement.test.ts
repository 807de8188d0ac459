import { cacheChangesChannel, cacheChangesSeqKey } from '@relay/contracts';
import { IngestHarness } from './harness';
import type { GatewayInstance } from './harness';
import { send } from './http';
import { modelsOf } from '../../support/store-models';

/*
 * A missed announcement is harmless (docs/architecture.md "Caches of settings"). The
 * gateway's cache follows the numbered announcements on the real Redis; here a change is
 * stored and numbered but its message never published (as if lost on the way), or published
 * with a number that skips one. Either way the gateway finds the change by revalidating what
 * it holds, within 1 s.
 */
const IN_FORCE_MS = 1000;
let h: IngestHarness;
let gw: GatewayInstance;
let account: string;

beforeAll(async () => {
  h = await IngestHarness.start('missed-ann');
  gw = await h.gateway();
  account = await h.account();
});

afterAll(async () => {
  await h?.stop();
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Changes the stored endpoint without telling anyone, as a change whose message was lost. */
async function changeSilently(endpointId: string, methods: string[]): Promise<void> {
  await modelsOf(h.store).endpoints.updateOne(
    { _id: endpointId },
    { $set: { methods, updated_at: new Date() }, $inc: { revision: 1 } },
  );
}

describe('a missed change announcement', () => {
  it('numbered but never published: the counter ahead of what was heard starts a revalidation', async () => {
    const id = await h.endpoint(account);
    expect((await send(gw, id)).status).toBe(202);
    await changeSilently(id, ['PUT']);
    await h.redis.incr(cacheChangesSeqKey(h.namespace));
    await sleep(IN_FORCE_MS);
    expect((await send(gw, id)).status).toBe(405);
  });

  it('a message whose number skips one (the one before it lost): the gap starts a revalidation', async () => {
    const id = await h.endpoint(account);
    expect((await send(gw, id)).status).toBe(202);
    await changeSilently(id, ['PUT']);
    const skipped = (await h.redis.incrby(cacheChangesSeqKey(h.namespace), 2)) as number;
    // an unrelated change with the later number: the one before it never arrives
    await h.redis.publish(cacheChangesChannel(h.namespace), `${skipped} endpoint ep_00000000000000000000`);
    await sleep(IN_FORCE_MS);
    expect((await send(gw, id)).status).toBe(405);
  });

  it('without any announcement or gap, a held endpoint is served from memory: the silent change is not seen', async () => {
    const id = await h.endpoint(account);
    expect((await send(gw, id)).status).toBe(202);
    await changeSilently(id, ['PUT']);
    await sleep(IN_FORCE_MS);
    // kept until told: this is why every write goes through announceChange (and the 5-minute sweep is the safety net)
    expect((await send(gw, id)).status).toBe(202);
  });
});
