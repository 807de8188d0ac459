import { keyedCollection } from '@relay/store';
import { fileStore } from '../../../libs/activity-log/conformance/fixtures';

/**
 * The activity log's keyed writes on the real store (libs/store/src/keyed-collection.ts):
 * an update is done only when the store matched or upserted every document it names, so a
 * write that did not happen is never acknowledged as done (the messages behind it are redelivered).
 */
const store = fileStore('keyedwrites');

type Doc = { _id: string; n: number };
const collection = (name: string) => keyedCollection<Doc>(store().connection.collection<Doc>(name));

describe('keyed updates on the store', () => {
  it('updates documents that exist, and upserts the ones asked to, in one call', async () => {
    const docs = collection('kw_present');
    await docs.insertNew([
      { _id: 'a', n: 1 },
      { _id: 'b', n: 1 },
    ]);
    await docs.update([
      { id: 'a', update: { $set: { n: 2 } } },
      { id: 'b', update: { $max: { n: 1 } } }, // matched, nothing to change: still done
      { id: 'c', update: { $max: { n: 5 } }, upsert: true },
    ]);
    expect((await docs.getMany(['a', 'b', 'c'])).sort((x, y) => x._id.localeCompare(y._id))).toEqual([
      { _id: 'a', n: 2 },
      { _id: 'b', n: 1 },
      { _id: 'c', n: 5 },
    ]);
  });

  it('fails when a document to update is not there (no upsert), naming how many were', async () => {
    const docs = collection('kw_missing');
    await docs.insertNew([{ _id: 'a', n: 1 }]);
    await expect(
      docs.update([
        { id: 'a', update: { $set: { n: 2 } } },
        { id: 'gone', update: { $set: { n: 2 } } },
      ]),
    ).rejects.toThrow('the store matched or upserted 1 of 2 documents to update in kw_missing');
  });

  it('checks each command of a long update, not only the first (25 statements a command)', async () => {
    const docs = collection('kw_long');
    await docs.insertNew(Array.from({ length: 40 }, (_, i) => ({ _id: `d${i}`, n: 0 })));
    const ops = Array.from({ length: 40 }, (_, i) => ({ id: `d${i}`, update: { $inc: { n: 1 } } }));
    await docs.update(ops);
    ops.push({ id: 'd40', update: { $inc: { n: 1 } } });
    await expect(docs.update(ops)).rejects.toThrow('matched or upserted 15 of 16 documents');
  });

  it('two writers upserting the same new documents at once: every upsert lands, and a counter counts each once', async () => {
    // both find no document and both insert; the loser's duplicate key is a race, sent again
    const docs = collection('kw_race');
    const rounds = 30;
    for (let r = 0; r < rounds; r++) {
      const writer = (side: number) =>
        Promise.all([
          docs.update([{ id: `count${r}`, update: { $inc: { n: 1 } }, upsert: true }]),
          docs.update([
            { id: `max${r}`, update: { $max: { n: side } }, upsert: true },
            { id: `own${r}_${side}`, update: { $max: { n: side } }, upsert: true },
          ]),
        ]);
      await Promise.all([writer(1), writer(2)]);
    }
    const ids = Array.from({ length: rounds }, (_, r) => [`count${r}`, `max${r}`, `own${r}_1`, `own${r}_2`]).flat();
    const byId = new Map((await docs.getMany(ids)).map((d) => [d._id, d.n]));
    expect(ids.filter((id) => byId.get(id) !== (id.startsWith('own') ? Number(id.slice(-1)) : 2))).toEqual([]);
  });
});
