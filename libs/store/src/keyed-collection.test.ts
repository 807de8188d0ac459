import type { Collection } from 'mongodb';
import { keyedCollection } from './keyed-collection';

type Doc = { _id: string };

/**
 * A collection whose insertMany answers with a count of its own choosing: what FerretDB 1.24 on
 * SQLite did across a restart in the chaos suite (docs/reliability.md), which no real server
 * here can be made to do on demand.
 */
function collectionAnswering(answer: (docs: Doc[]) => Promise<{ insertedCount: number }>): Collection<Doc> {
  return { collectionName: 'activity_rows_test', insertMany: answer } as unknown as Collection<Doc>;
}

const docs = (n: number): Doc[] => Array.from({ length: n }, (_, i) => ({ _id: `evt_${i}` }));

/** What the driver throws for an unordered insert with duplicate keys (MongoBulkWriteError's shape). */
function duplicateError(indexes: number[], insertedCount: number): Error {
  return Object.assign(new Error('E11000 duplicate key error'), {
    writeErrors: indexes.map((index) => ({ code: 11000, index })),
    insertedCount,
  });
}

describe('activity store: an insert is acknowledged only when every document is in the store', () => {
  it('a full insert returns no duplicates', async () => {
    const coll = keyedCollection(collectionAnswering(async (d) => ({ insertedCount: d.length })));
    await expect(coll.insertNew(docs(129))).resolves.toEqual([]);
  });

  it('an insert the store answers with fewer documents than sent, and no error, fails (the caller redelivers)', async () => {
    const coll = keyedCollection(collectionAnswering(async () => ({ insertedCount: 100 })));
    await expect(coll.insertNew(docs(129))).rejects.toThrow(
      'the store inserted 100 of 129 documents into activity_rows_test (0 already there) and reported no error for the rest',
    );
  });

  it('duplicates are returned as ids that already existed when the rest went in', async () => {
    const coll = keyedCollection(
      collectionAnswering(async () => {
        throw duplicateError([0, 2], 1);
      }),
    );
    await expect(coll.insertNew(docs(3))).resolves.toEqual(['evt_0', 'evt_2']);
  });

  it('duplicates plus inserted documents short of what was sent fail too', async () => {
    const coll = keyedCollection(
      collectionAnswering(async () => {
        throw duplicateError([0], 100);
      }),
    );
    await expect(coll.insertNew(docs(129))).rejects.toThrow(
      'inserted 100 of 129 documents into activity_rows_test (1 already there)',
    );
  });

  it('any other write error is thrown as it came', async () => {
    const coll = keyedCollection(
      collectionAnswering(async () => {
        throw Object.assign(new Error('document too large'), {
          writeErrors: [{ code: 10334, index: 0 }],
          insertedCount: 0,
        });
      }),
    );
    await expect(coll.insertNew(docs(1))).rejects.toThrow('document too large');
  });
});
