import { collectionsOf, hourOf } from '../../../test/support/activity-log-internals';
import { newEventId } from '@relay/contracts';
import type { ActivityDoc } from '@relay/store';
import { fileStore } from './fixtures';

/**
 * How an activity row is stored (libs/activity-log/src/storage/log.ts encodeRow): one JSON text beside
 * its `_id`, since FerretDB's cost grows with a document's number of values and no query ever
 * filters on a row's fields. Rows stored the earlier ways must still read back the same.
 */
const store = fileStore('rowcodec');

const rowAt = (receivedAt: Date): ActivityDoc => {
  const id = newEventId(receivedAt.getTime());
  return {
    _id: id,
    account_id: 'acc_1',
    endpoint_id: 'ep_1',
    received_at: receivedAt,
    method: 'POST',
    source_ip: '203.0.113.7',
    outcome: 'ACCEPTED',
    reason: null,
    target_count: 1,
    test: false,
    status: 'completed',
    last_error: null,
    aggregate: null,
    deliveries: {
      dlv_1: {
        delivery_id: 'dlv_1',
        target_id: 'tg_1',
        target_kind: 'webhook',
        state: 'delivered',
        attempts: {
          '1': {
            attempt: 1,
            attempted_at: new Date(receivedAt.getTime() + 40),
            state: 'delivered',
            status_code: 200,
            duration_ms: 12.5,
            error: null,
            next_attempt_at: null,
          },
        },
      },
    },
  } as unknown as ActivityDoc;
};

const rawCollection = (at: Date) =>
  store().connection.collection(`activity_rows_${hourOf(at.getTime()).replace(/[-T]/g, '')}`);

describe('an activity row in the store', () => {
  it('is written as its id and one JSON text, and reads back with its dates', async () => {
    const at = new Date(Date.now() - 1000);
    const row = rowAt(at);
    const rows = collectionsOf(store()).rows(hourOf(at.getTime()));
    expect(await rows.insertNew([row])).toEqual([]);
    const raw = await rawCollection(at).findOne({ _id: row._id as never });
    expect(Object.keys(raw!).sort()).toEqual(['_id', 'r']);
    expect(typeof raw!.r).toBe('string');
    const back = await rows.get(row._id);
    expect(back).toEqual(row);
    expect(back!.received_at).toBeInstanceOf(Date);
    expect(await collectionsOf(store()).row(row._id)).toEqual(row);
  });

  it('replaced whole by an update reads back as the update, also over a row stored with its fields apart', async () => {
    const at = new Date(Date.now() - 2000);
    const row = rowAt(at);
    // the layout before one-text rows: fields apart, deliveries as one text
    await rawCollection(at).insertOne({ ...row, deliveries: JSON.stringify(row.deliveries) } as never);
    const rows = collectionsOf(store()).rows(hourOf(at.getTime()));
    expect(await rows.get(row._id)).toEqual(row);
    const { _id, ...fields } = { ...row, status: 'errors' as const, last_error: 'HTTP 500' };
    await rows.update([{ id: _id, update: { $set: fields } }]);
    expect(await rows.get(row._id)).toEqual({ _id, ...fields });
  });

  it('stored with nested deliveries (the first layout) reads back the same', async () => {
    const at = new Date(Date.now() - 3000);
    const row = rowAt(at);
    await rawCollection(at).insertOne({ ...row } as never);
    expect(await collectionsOf(store()).rows(hourOf(at.getTime())).get(row._id)).toEqual(row);
  });
});
