import { Batcher } from './batcher';

describe('Batcher', () => {
  it('flushes when the batch is full and resolves every item with its batch', async () => {
    const flushed: number[][] = [];
    const b = new Batcher<number>(3, 10_000, async (items) => {
      flushed.push(items);
    });
    await Promise.all([b.add(1), b.add(2), b.add(3)]);
    expect(flushed).toEqual([[1, 2, 3]]);
  });

  it('flushes a partial batch after the wait', async () => {
    const flushed: number[][] = [];
    const b = new Batcher<number>(100, 5, async (items) => {
      flushed.push(items);
    });
    await Promise.all([b.add(1), b.add(2)]);
    expect(flushed).toEqual([[1, 2]]);
  });

  it('rejects every item of a batch whose write failed, so none is acked', async () => {
    const b = new Batcher<number>(2, 10_000, async () => {
      throw new Error('store down');
    });
    const results = await Promise.allSettled([b.add(1), b.add(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('runs one flush at a time, in order, even when batches fill during a flush', async () => {
    let running = 0;
    let maxRunning = 0;
    const flushed: number[][] = [];
    const b = new Batcher<number>(2, 10_000, async (items) => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, 20));
      flushed.push(items);
      running -= 1;
    });
    await Promise.all([1, 2, 3, 4, 5, 6].map((n) => b.add(n)));
    expect(maxRunning).toBe(1);
    expect(flushed).toEqual([[1, 2], [3, 4], [5, 6]]);
  });
});
