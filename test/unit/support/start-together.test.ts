import { startTogether } from '../../support/start-together';

describe('test servers started together', () => {
  it('answers every started value in order', async () => {
    const stopped: string[] = [];
    const stop = (v: string) => void stopped.push(v);
    const [a, b] = await startTogether([Promise.resolve('stack'), stop], [Promise.resolve(7), () => undefined]);
    expect([a, b, stopped]).toEqual(['stack', 7, []]);
  });

  it('when one fails, stops those that started and throws its error', async () => {
    const stopped: string[] = [];
    const stop = async (v: string) => void stopped.push(v);
    const late = new Promise<string>((resolve) => setTimeout(() => resolve('broker'), 20));
    const started = startTogether(
      [Promise.resolve('stack'), stop],
      [Promise.reject(new Error('the JVM did not start')), stop],
      [late, stop],
    );
    await expect(started).rejects.toThrow('the JVM did not start');
    expect(stopped.sort()).toEqual(['broker', 'stack']);
  });
});
