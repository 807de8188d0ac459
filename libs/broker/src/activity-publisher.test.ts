import { ACTIVITY_PARTITIONS, ACTIVITY_REQUEST_V1, activityPartitionOf, MAX_ACTIVITY_BATCH } from '@relay/contracts';
import type { ActivityRequestV1 } from '@relay/contracts';
import { ACTIVE_PARTITION_MS, ACTIVITY_LINGER_MS, createActivityPublisher } from './activity-publisher';

/*
 * How the activity publisher gathers records into messages (docs/architecture.md, the activity
 * partitions; docs/reliability.md for what a killed gateway loses from its linger), against an
 * in-memory fake of the confirm publisher: which records travel together, and when.
 */

/** one account per partition, found by the partition function itself */
const accountOf: string[] = [];
for (let i = 0; accountOf.filter(Boolean).length < ACTIVITY_PARTITIONS && i < 10_000; i++)
  accountOf[activityPartitionOf(`acc_${i}`)] ??= `acc_${i}`;

let n = 0;
function row(accountId: string): ActivityRequestV1 {
  n += 1;
  return {
    type: ACTIVITY_REQUEST_V1,
    event_id: `evt_${n}`,
    account_id: accountId,
    endpoint_id: 'ep_1',
    received_at: '2026-11-21T05:00:00.000Z',
    method: 'POST',
    source_ip: '127.0.0.1',
    outcome: 'ACCEPTED',
    reason: null,
    target_count: 1,
    test: false,
  };
}

function setup(spreadLinger: boolean) {
  /** one entry per message: its routing key and how many records it carried */
  const messages: Array<{ key: string; records: number }> = [];
  const publisher = {
    publish: async (_exchange: string, key: string, content: Buffer) =>
      void messages.push({ key, records: (JSON.parse(content.toString()) as { records: unknown[] }).records.length }),
  };
  const activity = createActivityPublisher(publisher, 'ns', {
    maxItems: MAX_ACTIVITY_BATCH,
    lingerMs: ACTIVITY_LINGER_MS,
    spreadLinger,
  });
  return { activity, messages };
}

/** one record to each of the `k` first partitions */
function spread(activity: ReturnType<typeof setup>['activity'], k: number): void {
  for (let p = 0; p < k; p++) void activity.publish(row(accountOf[p]!));
}

describe('the activity publisher: one message per partition per linger', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('finds an account for every partition (the test’s own premise)', () => {
    expect(accountOf.filter(Boolean)).toHaveLength(ACTIVITY_PARTITIONS);
  });

  it('records of one account wait the base linger and travel as one message', async () => {
    const { activity, messages } = setup(true);
    for (let i = 0; i < 7; i++) void activity.publish(row(accountOf[0]!));
    await jest.advanceTimersByTimeAsync(ACTIVITY_LINGER_MS - 1);
    expect(messages).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(messages).toEqual([{ key: expect.stringMatching(/0$/), records: 7 }]);
  });

  it('spread linger: with every partition active, a batch waits the base linger × 8, so each message carries as many records as one account’s would', async () => {
    const { activity, messages } = setup(true);
    // the first round starts the 8 batches one after the other: 5, 10, … 40 ms
    spread(activity, ACTIVITY_PARTITIONS);
    await jest.advanceTimersByTimeAsync(ACTIVITY_LINGER_MS * ACTIVITY_PARTITIONS);
    expect(messages).toHaveLength(ACTIVITY_PARTITIONS);
    messages.length = 0;
    // now all 8 are active: every partition's batch waits 40 ms and gathers 8 records
    for (let round = 0; round < 8; round++) {
      spread(activity, ACTIVITY_PARTITIONS);
      await jest.advanceTimersByTimeAsync(round < 7 ? ACTIVITY_LINGER_MS : ACTIVITY_LINGER_MS - 1);
    }
    // 39 ms after the batches started
    expect(messages).toEqual([]);
    expect(activity.pending).toBe(64);
    await jest.advanceTimersByTimeAsync(1);
    expect(messages).toHaveLength(ACTIVITY_PARTITIONS);
    expect(messages.every((m) => m.records === 8)).toBe(true);
  });

  it('spread linger: a partition counts as active for a second after its last batch started; then the linger is back to the base', async () => {
    const { activity, messages } = setup(true);
    spread(activity, 4);
    await jest.advanceTimersByTimeAsync(ACTIVITY_LINGER_MS * 4);
    expect(messages).toHaveLength(4);
    await jest.advanceTimersByTimeAsync(ACTIVE_PARTITION_MS);
    void activity.publish(row(accountOf[0]!));
    await jest.advanceTimersByTimeAsync(ACTIVITY_LINGER_MS);
    expect(messages).toHaveLength(5);
  });

  it('without spread linger (the deliverer, whose ack waits for the confirm) every batch waits the base linger', async () => {
    const { activity, messages } = setup(false);
    spread(activity, ACTIVITY_PARTITIONS);
    await jest.advanceTimersByTimeAsync(ACTIVITY_LINGER_MS);
    expect(messages).toHaveLength(ACTIVITY_PARTITIONS);
  });

  it('memory stays bounded whatever the linger: a partition holding 100 records sends them at once', async () => {
    const { activity, messages } = setup(true);
    spread(activity, ACTIVITY_PARTITIONS);
    for (let i = 0; i < MAX_ACTIVITY_BATCH; i++) void activity.publish(row(accountOf[7]!));
    await jest.advanceTimersByTimeAsync(0);
    expect(messages).toEqual([{ key: expect.stringMatching(/7$/), records: MAX_ACTIVITY_BATCH }]);
    activity.flush();
    await jest.advanceTimersByTimeAsync(0);
    expect(messages.reduce((s, m) => s + m.records, 0)).toBe(ACTIVITY_PARTITIONS + MAX_ACTIVITY_BATCH);
  });
});
