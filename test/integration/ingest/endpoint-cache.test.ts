import { newId } from '@relay/contracts';
import { connectStore } from '@relay/store';
import type { Store } from '@relay/store';
import { eventually, infra } from '../../support/infra';
import { TcpProxy } from '../../support/tcp-proxy';
import { IngestHarness } from './harness';
import { send } from './http';

/*
 * The endpoint cache on the real FerretDB. Unknown ids cost no read when
 * they cannot be endpoint ids; during a store outage cached endpoints are served stale and the
 * rest get a clear 503 instead of a 500 after 5 s.
 */
let h: IngestHarness;
let proxy: TcpProxy;
let proxiedStore: Store;

beforeAll(async () => {
  h = await IngestHarness.start('ep-cache');
  const mongo = new URL(infra.mongoBaseUrl);
  proxy = new TcpProxy(mongo.hostname, Number(mongo.port || 27017));
  await proxy.start();
  const proxied = new URL(`mongodb://127.0.0.1:${proxy.port}/${h.store.connection.name}`);
  // short, so reads still waiting for the cut store when the test ends do not outlive it
  proxiedStore = await connectStore(proxied.toString(), { serverSelectionTimeoutMS: 1000 });
});

afterAll(async () => {
  await proxy?.restore();
  await proxiedStore?.close();
  await proxy?.stop();
  await h?.stop();
});

describe('endpoint cache on the real store', () => {
  it('ids that cannot be endpoint ids (8 KB of text, random words) get 404 endpoint_not_found', async () => {
    const gw = await h.gateway();
    for (const id of ['x'.repeat(8192), 'wp-login.php', 'ep_unknown']) {
      const res = await send(gw, id);
      expect([res.status, res.json.code]).toEqual([404, 'endpoint_not_found']);
    }
  });

  it('store outage: a cached endpoint is still served (202: kept until told, no read); an endpoint never read gets 503 endpoint_unavailable, Retry-After 60, no row; both recover', async () => {
    const gw = await h.gateway({ store: proxiedStore });
    const account = await h.account();
    const cached = await h.endpoint(account);
    const neverRead = await h.endpoint(account);
    expect((await send(gw, cached)).status).toBe(202);

    await proxy.cut();
    expect((await send(gw, cached)).status).toBe(202);
    const refused = await send(gw, neverRead);
    expect([refused.status, refused.json.code, refused.headers.get('retry-after')]).toEqual([
      503,
      'endpoint_unavailable',
      '60',
    ]);
    const unknown = await send(gw, newId('ep'));
    expect([unknown.status, unknown.json.code]).toEqual([503, 'endpoint_unavailable']);
    expect(gw.logs().filter((l) => l.level === 'error')).toEqual([]);
    const failures = await gw.metrics.endpointLookupFailures.get();
    expect(Object.fromEntries(failures.values.map((v) => [v.labels.served, v.value]))).toEqual({ unavailable: 2 });

    await proxy.restore();
    await eventually(async () => (await send(gw, neverRead)).status === 202, 15000, 'the store to be read again');
    expect((await send(gw, cached)).status).toBe(202);
    await h.expectNoRows(newId('ep'), gw);
    expect(h.rowsOf(neverRead).map((r) => r.outcome)).toEqual(['ACCEPTED']);
  });
});
