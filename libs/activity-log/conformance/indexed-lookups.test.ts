import { collectionsOf, hourOf, createActivityWriter } from '../../../test/support/activity-log-internals';
import { spawnSync } from 'node:child_process';
import { collections } from '../src/storage/keys';
import { eventId, fileStore, request } from './fixtures';

/**
 * The local store finds a document by `_id`, and by each field the application declares an
 * index on, through an index (scripts/ferretdb-postgres.sql, which scripts/infra.sh runs). Every
 * query shape the code sends is explained in test/integration/store/explain-plans.test.ts; this
 * file checks the provisioning itself: a new hour's collections get their GIN twin, without a
 * pending list. FerretDB 1.24 sends equality to PostgreSQL as `_jsonb -> 'field' @> '"<value>"'`, which its own
 * btree indexes cannot serve. Without the GIN twins the provisioning adds, each read of a row, an
 * index page or a day directory read its whole hourly collection (docs/architecture.md "The local
 * store"). FerretDB's `explain` answers with PostgreSQL's plan of the query, so these tests read
 * the plan itself, not a timing.
 */
const store = fileStore('idlookups');
const ROWS = 2_000;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** every node of a PostgreSQL plan, depth first */
function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

async function planOfIdLookup(collection: string, id: string): Promise<PlanNode[]> {
  const explained = (await store().connection.db!.command({ explain: { find: collection, filter: { _id: id } } })) as {
    queryPlanner: { Plan: PlanNode };
  };
  return nodesOf(explained.queryPlanner.Plan);
}

function expectIndexScan(nodes: PlanNode[]): void {
  expect(nodes.map((n) => n['Node Type'])).not.toContain('Seq Scan');
  expect(nodes).toContainEqual(
    expect.objectContaining({ 'Node Type': 'Bitmap Index Scan', 'Index Name': expect.any(String) }),
  );
}

describe('the local store reads by _id and by declared indexes through an index (FerretDB on PostgreSQL, as scripts/infra.sh provisions it)', () => {
  const t0 = Date.parse('2026-11-20T08:15:00.000Z');
  const ids = Array.from({ length: ROWS }, (_, i) => eventId(`idl${i}`, t0 + i * 100));

  beforeAll(async () => {
    // an hour of the log as the writer makes it: its collections are new tables, created after
    // the provisioning ran, so the index comes from the event trigger, not the backfill
    const writer = createActivityWriter(collectionsOf(store()));
    for (let i = 0; i < ROWS; i += 500) {
      const batch = ids.slice(i, i + 500).map((id, k) => ({
        event_id: id,
        request: request(id, {
          endpoint_id: 'ep_idl',
          received_at: new Date(t0 + (i + k) * 100).toISOString(),
          target_count: 0,
        }),
        attempts: [],
        tokens: [],
        oldest_ms: t0,
      }));
      await writer.write({ events: batch, folds: [] });
    }
  });

  it("runs on FerretDB with the PostgreSQL backend, whose explain is PostgreSQL's plan", async () => {
    const info = (await store().connection.db!.command({ buildInfo: 1 })) as { ferretdbVersion?: string };
    expect(info.ferretdbVersion).toMatch(/^v1\.24\./);
    expect((await planOfIdLookup(collections.rows(hourOf(t0)), ids[7]!))[0]!['Node Type']).toEqual(expect.any(String));
  });

  it('a row of an hour the writer just made: an index scan on the `_id` GIN twin the event trigger added', async () => {
    expectIndexScan(await planOfIdLookup(collections.rows(hourOf(t0)), ids[1234]!));
  });

  it('the GIN twins keep no pending list (fastupdate off): a lookup never reads through unmerged keys', () => {
    // FerretDB keeps each database as a PostgreSQL schema of infra.sh's `ferretdb` database; its
    // `explain` shows plans, not index options, so this asks PostgreSQL itself
    const schema = store().connection.db!.databaseName;
    const psqlBin = spawnSync('sh', ['-c', 'command -v psql || ls /usr/lib/postgresql/*/bin/psql | tail -1'], {
      encoding: 'utf8',
    }).stdout.trim();
    const sql = `SELECT coalesce('fastupdate=off' = ANY (c.reloptions), false) FROM pg_class c JOIN pg_am a ON a.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace WHERE a.amname = 'gin' AND n.nspname = '${schema}'`;
    const r = spawnSync(
      psqlBin,
      [
        '-h',
        '127.0.0.1',
        '-p',
        process.env.RELAY_POSTGRES_PORT || '5433',
        '-U',
        'postgres',
        '-d',
        'ferretdb',
        '-At',
        '-c',
        sql,
      ],
      { encoding: 'utf8', timeout: 30000 },
    );
    expect(r.stderr).toBe('');
    const twins = r.stdout.trim().split('\n');
    // the rows, index pages and directory of the hour written above, and the declared indexes
    expect(twins.length).toBeGreaterThanOrEqual(3);
    expect(twins.every((off) => off === 't')).toBe(true);
  });

  it('the lookup finds the document the index points at', async () => {
    const found = await store()
      .connection.db!.collection<{ _id: string }>(collections.rows(hourOf(t0)))
      .findOne({ _id: ids[1234]! });
    expect(found?._id).toBe(ids[1234]);
  });
});
