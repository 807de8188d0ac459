import { PublishBatcher } from './batcher';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PublishBatcher', () => {
  it('publishes items added within the linger time as one batch', async () => {
    const batches: number[][] = [];
    const batcher = new PublishBatcher<number>(async (items) => void batches.push(items), {
      maxItems: 10,
      lingerMs: 5,
    });
    await Promise.all([batcher.add(1), batcher.add(2), batcher.add(3)]);
    expect(batches).toEqual([[1, 2, 3]]);
    expect(batcher.pending).toBe(0);
  });

  it('publishes at once when a batch is full, and never more than maxItems in one', async () => {
    const batches: number[][] = [];
    const batcher = new PublishBatcher<number>(async (items) => void batches.push(items), {
      maxItems: 2,
      lingerMs: 10_000,
    });
    await Promise.all([1, 2, 3, 4].map((n) => batcher.add(n)));
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('settles each add with the publish that carried it: a failed batch rejects its own items only', async () => {
    let calls = 0;
    const batcher = new PublishBatcher<string>(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('nacked');
      },
      { maxItems: 2, lingerMs: 5 },
    );
    const first = Promise.allSettled([batcher.add('a'), batcher.add('b')]);
    const second = Promise.allSettled([batcher.add('c')]);
    expect((await first).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((await second).map((r) => r.status)).toEqual(['fulfilled']);
  });

  it('a publish that throws synchronously rejects its items instead of escaping', async () => {
    const batcher = new PublishBatcher<number>(
      () => {
        throw new Error('channel closed');
      },
      { maxItems: 5, lingerMs: 1 },
    );
    await expect(batcher.add(1)).rejects.toThrow('channel closed');
  });

  it('counts items as pending until their publish settles', async () => {
    let release!: () => void;
    const batcher = new PublishBatcher<number>(() => new Promise<void>((r) => (release = r)), {
      maxItems: 5,
      lingerMs: 1,
    });
    const added = batcher.add(1);
    expect(batcher.pending).toBe(1);
    await tick(5);
    expect(batcher.pending).toBe(1);
    release();
    await added;
    await tick(0);
    expect(batcher.pending).toBe(0);
  });

  it('publishes once the gathered sizes reach maxBytes, and never lets an item push a batch past it', async () => {
    const batches: string[][] = [];
    const batcher = new PublishBatcher<string>(async (items) => void batches.push(items), {
      maxItems: 100,
      lingerMs: 10_000,
      maxBytes: 10,
      sizeOf: (s) => s.length,
    });
    await Promise.all(
      ['aaaa', 'bbbb', 'ccc', 'dddddddddddddd', 'ee', 'ffffffff']
        .map((s) => batcher.add(s))
        .concat([Promise.resolve(batcher.flush())]),
    );
    expect(batches).toEqual([['aaaa', 'bbbb'], ['ccc'], ['dddddddddddddd'], ['ee', 'ffffffff']]);
  });
});
