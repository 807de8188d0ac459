import type { Store } from '@relay/store';
import { createLastUsedRecorder } from './api-keys';
import type { ApiKeyInfo } from './api-keys';

/** The one call the recorder makes, counted; each write resolves when `release` is called. */
function fakeStore() {
  const writes: Array<{ filter: Record<string, unknown>; update: Record<string, unknown> }> = [];
  const pending: Array<() => void> = [];
  // the store's functions reach the keys through the models its connection registered
  const apiKeys = {
    updateOne: (filter: Record<string, unknown>, update: Record<string, unknown>) => ({
      exec: () =>
        new Promise((resolve) => {
          writes.push({ filter, update });
          pending.push(() => resolve({ modifiedCount: 1 }));
        }),
    }),
  };
  const store = { connection: { model: () => apiKeys } } as unknown as Store;
  return {
    store,
    writes,
    release: async () => (pending.splice(0).forEach((r) => r()), await new Promise((r) => setImmediate(r))),
  };
}

const NOW = new Date('2030-05-01T12:00:00Z');
const key = (lastUsed: Date | null): ApiKeyInfo => ({
  id: 'key_1',
  account_id: 'acc_1',
  prefix: 'rk_AbCd',
  role: 'viewer',
  name: null,
  created_by: null,
  created_at: NOW,
  last_used_at: lastUsed,
});

describe('an API key’s last use is written at most once a minute (bounded writes)', () => {
  it('a key used within the last minute costs no write, however often it is used', () => {
    const { store, writes } = fakeStore();
    const record = createLastUsedRecorder(store, { now: () => NOW });
    for (let i = 0; i < 100; i++) record(key(new Date(NOW.getTime() - 59_000)));
    expect(writes).toHaveLength(0);
  });

  it('a key not used for a minute, or never, is written once, even by many requests at once', async () => {
    const { store, writes, release } = fakeStore();
    const record = createLastUsedRecorder(store, { now: () => NOW });
    for (let i = 0; i < 100; i++) record(key(new Date(NOW.getTime() - 60_000)));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.update).toEqual({ $set: { last_used_at: NOW } });
    // conditional too, so two processes writing in the same minute cannot move it back
    expect(writes[0]!.filter).toMatchObject({ _id: 'key_1' });
    await release();
    record(key(null));
    expect(writes).toHaveLength(2);
  });
});
