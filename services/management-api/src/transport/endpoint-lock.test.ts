import { createEndpointLock } from './endpoint-lock';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('per-endpoint lock', () => {
  it('runs the changes of one endpoint one after another, others in parallel, and survives a failure', async () => {
    const lock = createEndpointLock();
    const log: string[] = [];
    const step = (id: string, name: string, fail = false) =>
      lock(id, async () => {
        log.push(`${name}:start`);
        await tick();
        log.push(`${name}:end`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([step('a', 'a1', true), step('a', 'a2'), step('b', 'b1')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(log.indexOf('a1:end')).toBeLessThan(log.indexOf('a2:start'));
    expect(log.indexOf('b1:start')).toBeLessThan(log.indexOf('a1:end'));
  });
});
