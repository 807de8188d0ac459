import * as storeModule from '@relay/store';
import { connectStore, keyedCollection, mapLimit } from '@relay/store';
import type { KeyedCollection, Store } from '@relay/store';
import { openActivityLog } from '@relay/activity-log';
import type { ActivityListQuery, ActivityLogWriterOptions } from '@relay/activity-log';
import { AlertRuleStore } from '@relay/alerts';
import type { CommandStartedEvent, Document } from 'mongodb';
import { BulkRetryStore } from '../../../services/management-api/src/adapters/bulk-retry-store';
import { identityKeyOf, MemberStore } from '../../../services/management-api/src/adapters/member-store';
import { attempt, eventId, listQuery, request } from '../../../libs/activity-log/conformance/fixtures';
import { testNamespace } from '../../support/infra';

/**
 * Every query the store's users send is served by an index on the store they run on (FerretDB
 * 1.24 on PostgreSQL, as scripts/infra.sh provisions it), proven by the store's own `explain`.
 * The shapes are not written down here: each user of the store is exercised through its code
 * (every function @relay/store exports, every method of a keyed collection, the activity log's
 * surface, the bulk retry and alert rule stores), the driver's command monitoring records every
 * command it sends, and each filter found there is explained once the collections it read hold
 * tens of thousands of documents. A new store function or method fails the coverage checks below
 * until it is exercised; a filter FerretDB does not push down (`_id: {$in}`) or PostgreSQL plans
 * as a sequential scan fails its user's test, which prints every shape with its plan.
 */
const { mongodbUrl } = testNamespace('explainplans');
/** documents added to every collection a shape reads, so a sequential scan is the expensive plan */
const FILLER = 20_000;

/** The exports of @relay/store that send nothing to the store themselves. */
const NOT_QUERIES = new Set([
  'connectStore',
  'keyedCollection',
  'mapLimit',
  'toAccount',
  'toActivity',
  'toEndpoint',
  'toTarget',
]);

/**
 * Shapes allowed to scan, each with why. `targetConfigsPage` walks every target in `_id` order
 * (the operator's `seal-target-secrets` command): a range on `_id` that FerretDB does not push
 * down, run once per page of an offline maintenance walk, never on a request's path.
 */
const SCANS_ALLOWED = new Set(['targetConfigsPage']);

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];

/** A filter a command sent, as the collection and filter an `explain: {find}` can take. */
interface SentFilter {
  user: string;
  collection: string;
  filter: Document;
}

/** Commands that carry no filter: inserts (by the unique `_id`), collection and index management, handshakes. */
const WITHOUT_FILTER = new Set([
  'insert',
  'create',
  'createIndexes',
  'listIndexes',
  'listCollections',
  'drop',
  'dropDatabase',
  'getMore',
  'killCursors',
  'endSessions',
  'ping',
  'hello',
  'isMaster',
  'buildInfo',
  'explain',
]);

/** The filters of one command (an update's or delete's statements each read by theirs); null: one this test cannot explain. */
function filtersOf(user: string, e: CommandStartedEvent): SentFilter[] | null {
  const c = e.command;
  const of = (collection: string, filter: Document | undefined): SentFilter => ({
    user,
    collection,
    filter: filter ?? {},
  });
  switch (e.commandName) {
    case 'find':
      return [of(c.find, c.filter)];
    case 'count':
      return [of(c.count, c.query)];
    case 'findAndModify':
      return [of(c.findAndModify, c.query)];
    case 'update':
      return (c.updates as { q: Document }[]).map((u) => of(c.update, u.q));
    case 'delete':
      return (c.deletes as { q: Document }[]).map((d) => of(c.delete, d.q));
    default:
      return WITHOUT_FILTER.has(e.commandName) ? [] : null;
  }
}

/** The shape of a filter: its fields and operators, values replaced by their type. */
function shapeOf(filter: unknown): unknown {
  if (Array.isArray(filter)) return filter.length ? [shapeOf(filter[0]), '…'] : [];
  if (filter instanceof Date) return '<date>';
  if (filter === null) return null;
  if (typeof filter === 'object')
    return Object.fromEntries(Object.entries(filter as Document).map(([k, v]) => [k, shapeOf(v)]));
  return `<${typeof filter}>`;
}

let store: Store;
let user = 'setup';
const sent: SentFilter[] = [];
/** commands sent that this test has no explain for (an aggregate, say): each fails the run */
const unexplained: string[] = [];

beforeAll(async () => {
  const url = new URL(mongodbUrl);
  url.searchParams.set('monitorCommands', 'true');
  store = await connectStore(url.toString());
  store.connection.getClient().on('commandStarted', (e: CommandStartedEvent) => {
    const filters = filtersOf(user, e);
    if (filters) sent.push(...filters);
    else unexplained.push(`${user}: ${e.commandName}`);
  });
});

afterAll(async () => {
  await store.connection.dropDatabase();
  await store.close();
});

/** Runs `fn` as `name`: every command it sends is recorded under that name. */
async function as(name: string, fn: () => Promise<unknown>): Promise<void> {
  user = name;
  try {
    await fn();
  } finally {
    user = 'setup';
  }
}

const NOW = new Date();
const ACCOUNT = 'acc_explain';
const ENDPOINT = 'ep_explain';
const TARGET = 'tg_explain';

/** One call of every store function @relay/store exports, with arguments that reach its queries. */
const STORE_CALLS: Record<string, (s: Store) => Promise<unknown>> = {
  insertAccount: (s) => storeModule.insertAccount(s, { id: ACCOUNT, name: 'explain', plan: PLAN }),
  findAccount: (s) => storeModule.findAccount(s, ACCOUNT),
  accountExists: (s) => storeModule.accountExists(s, ACCOUNT),
  setPlanLimits: (s) => storeModule.setPlanLimits(s, ACCOUNT, { monthly_accepted_events: 2000 }),
  accountPlan: (s) => storeModule.accountPlan(s, ACCOUNT),
  accountPlans: (s) => storeModule.accountPlans(s, [ACCOUNT, 'acc_missing']),
  insertApiKey: (s) =>
    storeModule.insertApiKey(s, {
      _id: 'key_explain',
      account_id: ACCOUNT,
      digest: 'd'.repeat(64),
      prefix: 'rk_explain',
      role: 'owner',
      created_at: NOW,
    } as storeModule.ApiKeyDoc),
  apiKeyByDigest: (s) => storeModule.apiKeyByDigest(s, 'd'.repeat(64)),
  apiKeysOfAccount: (s) => storeModule.apiKeysOfAccount(s, ACCOUNT),
  findAccountApiKey: (s) => storeModule.findAccountApiKey(s, ACCOUNT, 'key_explain'),
  apiKeyRolesOf: (s) => storeModule.apiKeyRolesOf(s, ACCOUNT),
  touchApiKey: (s) => storeModule.touchApiKey(s, 'key_explain', NOW, new Date(NOW.getTime() - 60_000)),
  deleteAccountApiKey: (s) => storeModule.deleteAccountApiKey(s, ACCOUNT, 'key_missing'),
  appendAudit: (s) =>
    storeModule.appendAudit(s, [
      { id: 'aud_explain', account_id: ACCOUNT, endpoint_id: ENDPOINT, action: 'enabled', actor: 'rk_x', at: NOW },
    ]),
  auditRows: async (s) => {
    await storeModule.auditRows(s, ACCOUNT, 50, null);
    await storeModule.auditRows(s, ACCOUNT, 50, NOW, ENDPOINT);
  },
  insertEndpoint: (s) =>
    storeModule.insertEndpoint(s, ENDPOINT, ACCOUNT, {
      name: 'explain',
      payload_format: 'json',
      inbound_auth: { mode: 'none' } as never,
    }),
  findEndpoint: (s) => storeModule.findEndpoint(s, ENDPOINT),
  findEndpoints: (s) => storeModule.findEndpoints(s, [ENDPOINT, 'ep_missing']),
  findAccountEndpoint: (s) => storeModule.findAccountEndpoint(s, ACCOUNT, ENDPOINT),
  isAccountEndpoint: (s) => storeModule.isAccountEndpoint(s, ACCOUNT, ENDPOINT),
  endpointPayloadFormat: (s) => storeModule.endpointPayloadFormat(s, ACCOUNT, ENDPOINT),
  endpointsOfAccount: (s) => storeModule.endpointsOfAccount(s, ACCOUNT),
  updateEndpointAt: async (s) => {
    await storeModule.updateEndpointAt(s, ENDPOINT, 1, { name: 'renamed' });
    await storeModule.updateEndpointAt(s, ENDPOINT, undefined, { name: 'renamed again' });
  },
  setEndpointControl: (s) => storeModule.setEndpointControl(s, ACCOUNT, ENDPOINT, 'paused', true),
  insertTarget: (s) =>
    storeModule.insertTarget(s, TARGET, ACCOUNT, ENDPOINT, {
      kind: 'webhook',
      name: 'explain',
      enabled: true,
      config: { url: 'https://example.com/' },
    }),
  findTarget: (s) => storeModule.findTarget(s, TARGET),
  findTargets: (s) => storeModule.findTargets(s, [TARGET, 'tg_missing']),
  enabledTargetRoutes: async (s) => {
    await storeModule.enabledTargetRoutes(s, ENDPOINT);
    await storeModule.enabledTargetRoutes(s, [ENDPOINT, 'ep_missing']);
  },
  enabledTargetsOf: (s) => storeModule.enabledTargetsOf(s, ACCOUNT, ENDPOINT),
  routedTargetIds: (s) => storeModule.routedTargetIds(s, ENDPOINT, 10),
  targetsOfEndpoint: (s) => storeModule.targetsOfEndpoint(s, ENDPOINT),
  targetNames: (s) => storeModule.targetNames(s, ENDPOINT, [TARGET, 'tg_missing']),
  findEndpointTarget: (s) => storeModule.findEndpointTarget(s, ENDPOINT, TARGET),
  isAccountTarget: (s) => storeModule.isAccountTarget(s, ACCOUNT, TARGET),
  flagTarget: (s) => storeModule.flagTarget(s, TARGET, 'gone', NOW),
  setTargetFields: (s) => storeModule.setTargetFields(s, ENDPOINT, TARGET, { name: 'renamed' }),
  storeBreakerState: async (s) => {
    await storeModule.storeBreakerState(s, TARGET, { state: 'open', since: NOW, reason: 'x', seq: 2 });
    await storeModule.storeBreakerState(s, TARGET, { state: 'closed', since: new Date(0), reason: 'x', seq: 3 });
  },
  replaceTargetConfig: (s) =>
    storeModule.replaceTargetConfig(s, TARGET, { url: 'https://example.com/' }, { url: 'https://example.org/' }),
  targetConfigsPage: async (s) => {
    await storeModule.targetConfigsPage(s, null, 10);
    await storeModule.targetConfigsPage(s, TARGET, 10);
  },
  saveTransformationVersion: async (s) => {
    // one past the cap, so the save also deletes the oldest version
    for (let i = 0; i <= storeModule.MAX_TRANSFORMATION_VERSIONS; i += 1)
      await storeModule.saveTransformationVersion(s, {
        scope_id: ENDPOINT,
        scope: 'endpoint',
        account_id: ACCOUNT,
        endpoint_id: ENDPOINT,
        code: `export default (e) => e; // ${i}`,
        saved_by: 'rk_explain',
        saved_by_name: null,
        restored_from: null,
      });
  },
  transformationHeads: (s) => storeModule.transformationHeads(s, [ENDPOINT, TARGET]),
  transformationVersion: (s) => storeModule.transformationVersion(s, ENDPOINT, 2),
  transformationVersions: (s) =>
    storeModule.transformationVersions(s, ENDPOINT, storeModule.MAX_TRANSFORMATION_VERSIONS + 1),
  clearTransformation: (s) => storeModule.clearTransformation(s, ENDPOINT),
  deleteTransformations: (s) => storeModule.deleteTransformations(s, [ENDPOINT, TARGET]),
  deleteEndpointTarget: (s) => storeModule.deleteEndpointTarget(s, ENDPOINT, 'tg_missing'),
  deleteEndpointAndTargets: (s) => storeModule.deleteEndpointAndTargets(s, 'ep_missing'),
};
const PLAN = { name: 'free', monthly_accepted_events: 1000, payload_limit_bytes: 65536 };

/** One call of every method of a keyed collection (the activity log's and the bulk retries' only access). */
const KEYED_CALLS: Record<
  keyof KeyedCollection<{ _id: string }>,
  (c: KeyedCollection<{ _id: string; n?: number }>) => Promise<unknown>
> = {
  insertNew: (c) => c.insertNew([{ _id: 'k_1' }, { _id: 'k_2' }]),
  get: (c) => c.get('k_1'),
  getMany: (c) => c.getMany(['k_1', 'k_2', 'k_missing']),
  update: (c) =>
    c.update([
      { id: 'k_1', update: { $set: { n: 1 } } },
      { id: 'k_3', update: { $set: { n: 1 } }, upsert: true },
    ]),
  delete: (c) => c.delete(['k_2']),
};

const HOUR_AGO = Date.now() - 3_600_000;
const query = (over: Partial<ActivityListQuery>): ActivityListQuery =>
  listQuery(ACCOUNT, { fromMs: HOUR_AGO - 86_400_000, limit: 50, ...over });

const WRITER: ActivityLogWriterOptions = {
  holdMs: 0,
  maxHeld: 1000,
  batchSize: 1000,
  maxWaitMs: 10,
  payloadMessagesPerFlush: 16,
  keepPerMinute: 10,
  retentionMs: 30 * 86_400_000,
};

/** The activity log's surface, on rows it wrote: written, listed by every kind of filter, read, resent. */
const ACTIVITY_CALLS: Record<string, () => Promise<unknown>> = {
  write: async () => {
    const w = openActivityLog(store.connection, 'ferretdb').writer(WRITER);
    const on = { account_id: ACCOUNT, endpoint_id: ENDPOINT };
    const ids = Array.from({ length: 20 }, (_, i) => eventId(`explain${i}`, HOUR_AGO + i * 1000));
    await w.write(ids.map((id, i) => request(id, { ...on, received_at: new Date(HOUR_AGO + i * 1000).toISOString() })));
    // attempts after their rows left the writer: a new writer reads the rows back
    const late = openActivityLog(store.connection, 'ferretdb').writer(WRITER);
    await late.write(ids.map((id) => attempt(id, 'tg_1', 1, 'failed', { ...on, status_code: 503, error: 'HTTP 503' })));
    await w.writePayloads(
      ids.map((id, i) => ({
        event_id: id,
        ...on,
        received_at: new Date(HOUR_AGO + i * 1000).toISOString(),
        request: { method: 'POST', source_ip: '203.0.113.7', headers: {}, query: '' },
        payload: { content_type: 'application/json', body_base64: Buffer.from('{"a":1}').toString('base64') },
      })),
    );
    await Promise.all([w.drain(), late.drain()]);
  },
  list: async () => {
    const log = openActivityLog(store.connection, 'ferretdb');
    await log.list(query({}));
    await log.list(query({ endpointId: ENDPOINT, status: 'errors' }));
    await log.list(query({ sourceIp: '203.0.113.7' }));
    await log.list(query({ errorText: '503' }));
    await log.list(query({ payload: '"a"' }));
    await log.list(query({ responseStatus: '503' }));
  },
  row: () => openActivityLog(store.connection, 'ferretdb').row(eventId('explain3', HOUR_AGO + 3000)),
  payload: () => openActivityLog(store.connection, 'ferretdb').payload(eventId('explain3', HOUR_AGO + 3000)),
};

/** The bulk retry store's methods (management API): a job created, listed, run, cancelled, pruned. */
const BULK_RETRY_CALLS = (jobs: BulkRetryStore): Record<string, () => Promise<unknown>> => ({
  create: () =>
    jobs.create({
      _id: 'brj_explain',
      account_id: ACCOUNT,
      filter: {} as never,
      rate_per_second: 10,
      created_at: NOW,
      created_by: 'rk_x',
    }),
  list: () => jobs.list(ACCOUNT, 10, null),
  job: () => jobs.job('brj_explain'),
  status: () => jobs.status('brj_explain'),
  claim: () => jobs.claim('brj_explain', 0, 'me', Date.now() + 60_000),
  renew: () => jobs.renew('brj_explain', 0, Date.now() + 120_000),
  superseded: () => jobs.superseded('brj_explain', 0),
  saveProgress: () =>
    jobs.saveProgress(
      'brj_explain',
      0,
      {
        state: 'running',
        cursor: null,
        counts: {} as never,
        started_at: NOW,
        updated_at: NOW,
        finished_at: null,
        error: null,
      },
      true,
    ),
  requestCancel: () => jobs.requestCancel('brj_explain', 'rk_x', NOW),
  cancelRequested: () => jobs.cancelRequested('brj_explain'),
  slots: () => jobs.slots(),
  advanceLow: () => jobs.advanceLow(1),
  prune: () => jobs.prune(new Date(NOW.getTime() + 86_400_000), 10),
});

/** The alert rule store's methods. */
const ALERT_RULE_CALLS = (rules: AlertRuleStore): Record<string, () => Promise<unknown>> => {
  const input = { name: 'r', enabled: true, target_ids: [], conditions: [], cooldown_minutes: 5 };
  let id = 'ar_missing';
  return {
    ensureIndexes: () => rules.ensureIndexes(),
    create: async () => {
      id = (await rules.create(ACCOUNT, input, NOW))!.id;
    },
    listByAccount: () => rules.listByAccount(ACCOUNT),
    get: () => rules.get(ACCOUNT, id),
    replace: () => rules.replace(ACCOUNT, id, { ...input, name: 'r2' }, NOW),
    delete: () => rules.delete(ACCOUNT, id),
  };
};

/** The member store's methods (management API): a provider, an invitation and a member made, read and removed. */
const MEMBER_CALLS = (members: MemberStore): Record<string, () => Promise<unknown>> => {
  const identity = identityKeyOf(ACCOUNT, 'https://idp.example.com', 'person');
  return {
    saveProvider: () =>
      members.saveProvider({
        _id: ACCOUNT,
        issuer: 'https://idp.example.com',
        client_id: 'c',
        client_secret: 'enc:v1:x',
        updated_at: NOW,
        updated_by: 'rk_x',
      }),
    provider: () => members.provider(ACCOUNT),
    removeProvider: () => members.removeProvider(ACCOUNT),
    invite: () =>
      members.invite({
        _id: 'inv_explain',
        account_id: ACCOUNT,
        digest: 'd'.repeat(64),
        email: 'a@example.com',
        role: 'viewer',
        created_by: 'rk_x',
        created_at: NOW,
        expires_at: NOW,
      }),
    invitationsOf: () => members.invitationsOf(ACCOUNT),
    invitationByDigest: () => members.invitationByDigest('d'.repeat(64)),
    removeInvitation: () => members.removeInvitation(ACCOUNT, 'inv_explain'),
    addMember: () =>
      members.addMember({
        _id: 'mem_explain',
        account_id: ACCOUNT,
        identity,
        issuer: 'https://idp.example.com',
        subject: 'person',
        email: 'a@example.com',
        name: null,
        role: 'viewer',
        invited_by: 'rk_x',
        created_at: NOW,
      }),
    member: () => members.member('mem_explain'),
    memberByIdentity: () => members.memberByIdentity(identity),
    membersOf: () => members.membersOf(ACCOUNT),
    removeMember: () => members.removeMember(ACCOUNT, 'mem_explain'),
  };
};
/** Private helpers of the member store, and the public method that runs each. */
const MEMBER_HELPERS: Record<string, string> = { indexed: 'invite' };

/** Private helpers of the bulk retry store, and the public method that runs each. */
const BULK_RETRY_HELPERS: Record<string, string> = {
  takeAccountSlot: 'create',
  freeSlot: 'create',
  accountTop: 'list',
};

const methodsOf = (proto: object): string[] =>
  Object.getOwnPropertyNames(proto).filter(
    (n) => n !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, n)!.value === 'function',
  );

describe('every query shape the store users send is served by an index (FerretDB explain, tens of thousands of documents)', () => {
  const users: string[] = [];
  const verdicts = new Map<
    string,
    { shape: string; collection: string; pushdown: boolean; plan: string; indexed: boolean }[]
  >();

  beforeAll(async () => {
    for (const [name, call] of Object.entries(STORE_CALLS)) await as(`@relay/store ${name}`, () => call(store));
    const keyed = keyedCollection<{ _id: string; n?: number }>(store.connection.collection('explain_keyed'));
    for (const [name, call] of Object.entries(KEYED_CALLS)) await as(`KeyedCollection.${name}`, () => call(keyed));
    for (const [name, call] of Object.entries(ACTIVITY_CALLS)) await as(`activity log ${name}`, call);
    for (const [name, call] of Object.entries(BULK_RETRY_CALLS(new BulkRetryStore(store))))
      await as(`BulkRetryStore.${name}`, call);
    for (const [name, call] of Object.entries(ALERT_RULE_CALLS(new AlertRuleStore(store))))
      await as(`AlertRuleStore.${name}`, call);
    for (const [name, call] of Object.entries(MEMBER_CALLS(new MemberStore(store))))
      await as(`MemberStore.${name}`, call);
    users.push(...new Set(sent.map((s) => s.user)));

    // every collection a shape read gets FILLER documents, so PostgreSQL plans it as a big table
    const db = store.connection.db!;
    await mapLimit([...new Set(sent.map((s) => s.collection))], 4, async (collection) => {
      for (let i = 0; i < FILLER; i += 5000)
        await db.collection<{ _id: string }>(collection).insertMany(
          Array.from({ length: 5000 }, (_, k) => ({ _id: `filler_${i + k}`, filler: i + k })),
          {
            ordered: false,
          },
        );
    });
    user = 'explain';
    const seen = new Set<string>();
    for (const s of sent.filter((x) => x.user !== 'setup' && x.user !== 'explain')) {
      const shape = JSON.stringify(shapeOf(s.filter));
      const key = `${s.user} ${s.collection} ${shape}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const explained = (await db.command({ explain: { find: s.collection, filter: s.filter } })) as {
        filterPushdown: boolean;
        queryPlanner: { Plan: PlanNode };
      };
      const nodes = nodesOf(explained.queryPlanner.Plan);
      const plan = nodes.map((n) => n['Node Type'] + (n['Index Name'] ? ` (${n['Index Name']})` : '')).join(' → ');
      const indexed = explained.filterPushdown && !nodes.some((n) => n['Node Type'] === 'Seq Scan');
      const list = verdicts.get(s.user) ?? [];
      list.push({
        shape,
        collection: s.collection.replace(/_\d{8,10}$/, '_<time>'),
        pushdown: explained.filterPushdown,
        plan,
        indexed,
      });
      verdicts.set(s.user, list);
    }
    // the table every run prints: each user, each shape, its plan
    console.log(
      [...verdicts]
        .flatMap(([u, list]) =>
          list.map(
            (v) =>
              `${v.indexed ? 'index' : 'SCAN '}  ${u}  ${v.collection} ${v.shape}  pushdown=${v.pushdown}  ${v.plan}`,
          ),
        )
        .join('\n'),
    );
  }, 300_000);

  it('exercises every function @relay/store exports (a new one must be added to STORE_CALLS)', () => {
    const exported = Object.entries(storeModule)
      .filter(([name, v]) => typeof v === 'function' && !NOT_QUERIES.has(name))
      .map(([name]) => name);
    expect(Object.keys(STORE_CALLS).sort()).toEqual(exported.sort());
  });

  it('exercises every method of a keyed collection, the bulk retry, alert rule and member stores', () => {
    expect(Object.keys(KEYED_CALLS).sort()).toEqual(
      Object.keys(keyedCollection(store.connection.collection<{ _id: string }>('x'))).sort(),
    );
    expect(Object.keys(BULK_RETRY_CALLS(new BulkRetryStore(store))).sort()).toEqual(
      methodsOf(BulkRetryStore.prototype)
        .filter((m) => !(m in BULK_RETRY_HELPERS))
        .sort(),
    );
    expect(Object.keys(ALERT_RULE_CALLS(new AlertRuleStore(store))).sort()).toEqual(
      methodsOf(AlertRuleStore.prototype).sort(),
    );
    expect(Object.keys(MEMBER_CALLS(new MemberStore(store))).sort()).toEqual(
      methodsOf(MemberStore.prototype)
        .filter((m) => !(m in MEMBER_HELPERS))
        .sort(),
    );
  });

  it('every command sent is one whose filter this test explains, or one with no filter', () => {
    expect(unexplained).toEqual([]);
  });

  it('every user sent at least one filter, so each test below has shapes to judge', () => {
    const quiet = [...Object.keys(STORE_CALLS).map((n) => `@relay/store ${n}`)].filter(
      (u) => !users.includes(u) && !/^@relay\/store (insert|appendAudit)/.test(u),
    );
    expect(quiet).toEqual([]);
  });

  it.each([
    ...Object.keys(STORE_CALLS)
      .filter((n) => !SCANS_ALLOWED.has(n))
      .map((n) => `@relay/store ${n}`),
    ...Object.keys(KEYED_CALLS).map((n) => `KeyedCollection.${n}`),
    ...Object.keys(ACTIVITY_CALLS).map((n) => `activity log ${n}`),
    ...methodsOf(BulkRetryStore.prototype)
      .filter((m) => !(m in BULK_RETRY_HELPERS))
      .map((n) => `BulkRetryStore.${n}`),
    ...methodsOf(AlertRuleStore.prototype).map((n) => `AlertRuleStore.${n}`),
    ...methodsOf(MemberStore.prototype)
      .filter((m) => !(m in MEMBER_HELPERS))
      .map((n) => `MemberStore.${n}`),
  ])('%s: every filter it sends is pushed down and planned as an index scan', (name) => {
    const list = verdicts.get(name) ?? [];
    expect(list.filter((v) => !v.indexed)).toEqual([]);
  });
});
