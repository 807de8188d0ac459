import {
  connectStore,
  deleteEndpointTarget,
  enabledTargetsOf,
  findEndpointTarget,
  findTarget,
  findTargets,
  flagTarget,
  insertTarget,
  isAccountTarget,
  replaceTargetConfig,
  routedTargetIds,
  setTargetFields,
  storeBreakerState,
  targetConfigsPage,
  targetNames,
  targetsOfEndpoint,
} from '@relay/store';
import type { Store } from '@relay/store';
import { testNamespace } from '../../support/infra';
import { modelsOf } from '../../support/store-models';

/*
 * The target reads libs/store gives the management API's routes and jobs (item 3:
 * route code does not query the store's models), on the real store.
 */
const { mongodbUrl } = testNamespace('storetargets');
let store: Store;

const target = (id: string, over: Record<string, unknown> = {}) => {
  const now = new Date();
  return {
    _id: id,
    account_id: 'acc_a',
    endpoint_id: 'ep_a',
    kind: 'webhook',
    name: id,
    enabled: true,
    config: { url: 'https://example.com/' },
    flagged: null,
    created_at: now,
    updated_at: now,
    ...over,
  };
};

beforeAll(async () => {
  store = await connectStore(mongodbUrl);
  await modelsOf(store).targets.create([
    target('tg_a1'),
    target('tg_a2', { kind: 'embed_chat' }),
    target('tg_off', { enabled: false }),
    target('tg_other_ep', { endpoint_id: 'ep_b' }),
    target('tg_other_acc', { account_id: 'acc_b' }),
    target('tg_routed', { endpoint_id: 'ep_r', routing: { match: 'all', rules: [{ kind: 'exists', path: 'type' }] } }),
    target('tg_unrouted', { endpoint_id: 'ep_r', routing: null }),
    target('tg_older', { endpoint_id: 'ep_r' }),
  ]);
});

afterAll(async () => {
  await store.connection.dropDatabase();
  await store.close();
});

describe('target reads of libs/store (real store)', () => {
  it('findTarget: the record by id (id, not _id), whatever its endpoint; null for an unknown id', async () => {
    expect(await findTarget(store, 'tg_other_acc')).toMatchObject({
      id: 'tg_other_acc',
      account_id: 'acc_b',
      endpoint_id: 'ep_a',
      enabled: true,
    });
    expect(await findTarget(store, 'tg_missing')).toBeNull();
  });

  it('enabledTargetsOf: the enabled targets of that account’s endpoint only, id and kind', async () => {
    const found = await enabledTargetsOf(store, 'acc_a', 'ep_a');
    expect(found.sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { id: 'tg_a1', kind: 'webhook' },
      { id: 'tg_a2', kind: 'embed_chat' },
    ]);
    expect(await enabledTargetsOf(store, 'acc_b', 'ep_b')).toEqual([]);
  });

  it('routedTargetIds: only the endpoint’s targets with routing rules (null and absent have none), at most `limit`', async () => {
    expect(await routedTargetIds(store, 'ep_r', 5)).toEqual(['tg_routed']);
    expect(await routedTargetIds(store, 'ep_a', 5)).toEqual([]);
  });

  it('targetsOfEndpoint: every target of the endpoint (enabled or not), oldest first; none for another endpoint', async () => {
    const ids = (await targetsOfEndpoint(store, 'ep_a')).map((t) => t.id);
    expect([...ids].sort()).toEqual(['tg_a1', 'tg_a2', 'tg_off', 'tg_other_acc']);
    expect(await targetsOfEndpoint(store, 'ep_none')).toEqual([]);
  });

  it('targetNames: names of the endpoint’s targets among the ids only; an empty list asks nothing', async () => {
    expect(await targetNames(store, 'ep_a', ['tg_a1', 'tg_other_ep', 'tg_missing'])).toEqual(
      new Map([['tg_a1', 'tg_a1']]),
    );
    expect(await targetNames(store, 'ep_a', [])).toEqual(new Map());
  });

  it('findEndpointTarget: the record only through its own endpoint', async () => {
    expect(await findEndpointTarget(store, 'ep_a', 'tg_a2')).toMatchObject({ id: 'tg_a2', kind: 'embed_chat' });
    expect(await findEndpointTarget(store, 'ep_a', 'tg_other_ep')).toBeNull();
  });

  it('isAccountTarget: true for the account’s target on any endpoint, false for another account’s or a missing one', async () => {
    expect(await isAccountTarget(store, 'acc_a', 'tg_other_ep')).toBe(true);
    expect(await isAccountTarget(store, 'acc_a', 'tg_other_acc')).toBe(false);
    expect(await isAccountTarget(store, 'acc_a', 'tg_missing')).toBe(false);
  });

  it('findTargets: the records among the ids, a missing id absent', async () => {
    expect((await findTargets(store, ['tg_a1', 'tg_other_ep', 'tg_missing'])).map((t) => t.id).sort()).toEqual([
      'tg_a1',
      'tg_other_ep',
    ]);
    expect(await findTargets(store, [])).toEqual([]);
  });

  it('flagTarget: sets the flag once; a second flag does not replace the first reason', async () => {
    const at = new Date('2026-11-26T12:00:00Z');
    expect(await flagTarget(store, 'tg_older', 'gone (410)', at)).toBe(true);
    expect(await flagTarget(store, 'tg_older', 'another reason', new Date())).toBe(false);
    expect((await findTarget(store, 'tg_older'))?.flagged).toEqual({ reason: 'gone (410)', at });
    expect(await flagTarget(store, 'tg_missing', 'gone (410)', at)).toBe(false);
  });

  it('targetConfigsPage: every target once, a page at a time in id order, however many pages', async () => {
    const seen: string[] = [];
    let pages = 0;
    for (let after: string | null = null; pages < 20; pages += 1) {
      const page = await targetConfigsPage(store, after, 3);
      for (const t of page) expect(Object.keys(t).sort()).toEqual(['config', 'id', 'kind']);
      seen.push(...page.map((t) => t.id));
      if (page.length < 3) break;
      after = page[page.length - 1]!.id;
    }
    const all = (await findTargets(store, seen)).map((t) => t.id);
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(all.length);
    expect(seen).toEqual(expect.arrayContaining(['tg_a1', 'tg_other_acc', 'tg_routed']));
  });

  it('replaceTargetConfig: only while the stored config is the one expected (compare-and-set)', async () => {
    await insertTarget(store, 'tg_cas', 'acc_a', 'ep_cas', {
      kind: 'webhook',
      name: 'cas',
      enabled: true,
      config: { url: 'https://a.example/' },
    });
    expect(await replaceTargetConfig(store, 'tg_cas', { url: 'https://other.example/' }, { url: 'sealed' })).toBe(
      false,
    );
    expect(await replaceTargetConfig(store, 'tg_cas', { url: 'https://a.example/' }, { url: 'sealed' })).toBe(true);
    expect((await findTarget(store, 'tg_cas'))?.config).toEqual({ url: 'sealed' });
  });

  it('insertTarget, setTargetFields, deleteEndpointTarget: through the target’s own endpoint only', async () => {
    const made = await insertTarget(store, 'tg_made', 'acc_a', 'ep_made', {
      kind: 'webhook',
      name: 'made',
      enabled: true,
      config: {},
    });
    expect(made).toMatchObject({ id: 'tg_made', account_id: 'acc_a', endpoint_id: 'ep_made', flagged: null });
    expect(await setTargetFields(store, 'ep_other', 'tg_made', { name: 'renamed' })).toBeNull();
    expect(await setTargetFields(store, 'ep_made', 'tg_made', { name: 'renamed' })).toMatchObject({
      id: 'tg_made',
      name: 'renamed',
    });
    expect(await deleteEndpointTarget(store, 'ep_other', 'tg_made')).toBe(false);
    expect(await deleteEndpointTarget(store, 'ep_made', 'tg_made')).toBe(true);
    expect(await findTarget(store, 'tg_made')).toBeNull();
  });

  it('storeBreakerState: a later transition replaces the stored one, an earlier one does not; since 0 always writes', async () => {
    const at = (ms: number) => new Date(Date.UTC(2026, 10, 26) + ms);
    await storeBreakerState(store, 'tg_a2', { state: 'open', since: at(1000), reason: 'failures', seq: 2 });
    await storeBreakerState(store, 'tg_a2', { state: 'half_open', since: at(500), reason: 'older', seq: 9 });
    await storeBreakerState(store, 'tg_a2', {
      state: 'closed',
      since: at(1000),
      reason: 'same ms, earlier seq',
      seq: 1,
    });
    expect((await findTarget(store, 'tg_a2'))?.breaker_state).toMatchObject({ state: 'open', seq: 2 });
    await storeBreakerState(store, 'tg_a2', {
      state: 'half_open',
      since: at(1000),
      reason: 'same ms, later seq',
      seq: 3,
    });
    expect((await findTarget(store, 'tg_a2'))?.breaker_state).toMatchObject({ state: 'half_open', seq: 3 });
    await storeBreakerState(store, 'tg_a2', { state: 'closed', since: new Date(0), reason: 'expired', seq: 0 });
    expect((await findTarget(store, 'tg_a2'))?.breaker_state).toMatchObject({ state: 'closed', seq: 0 });
  });
});
