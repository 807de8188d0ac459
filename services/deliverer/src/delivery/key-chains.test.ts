import { KeyChains } from './key-chains';

/** A task that runs until its `end` is called, recording when it started. */
function gate(log: string[], name: string) {
  let end!: (ok: boolean) => void;
  const done = new Promise<void>((resolve, reject) => (end = (ok) => (ok ? resolve() : reject(new Error(name)))));
  return {
    task: () => {
      log.push(`start ${name}`);
      return done;
    },
    end,
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyChains (docs/ordering.md "In the deliverer")', () => {
  it("runs a key's tasks one after another, and other keys' beside them", async () => {
    const chains = new KeyChains();
    const log: string[] = [];
    const a1 = gate(log, 'a1');
    const a2 = gate(log, 'a2');
    const b1 = gate(log, 'b1');
    const runs = [chains.after('a', a1.task), chains.after('a', a2.task), chains.after('b', b1.task)];
    await tick();
    expect(log).toEqual(['start a1', 'start b1']);
    b1.end(true);
    await tick();
    expect(log).toEqual(['start a1', 'start b1']);
    a1.end(true);
    await tick();
    expect(log).toEqual(['start a1', 'start b1', 'start a2']);
    a2.end(true);
    await Promise.all(runs);
    await tick();
    expect(chains.keys).toBe(0);
  });

  it('starts the next task of a key when the one before it failed', async () => {
    const chains = new KeyChains();
    const log: string[] = [];
    const a1 = gate(log, 'a1');
    const a2 = gate(log, 'a2');
    const first = chains.after('a', a1.task);
    const second = chains.after('a', a2.task);
    a1.end(false);
    await expect(first).rejects.toThrow('a1');
    await tick();
    expect(log).toEqual(['start a1', 'start a2']);
    a2.end(true);
    await second;
  });

  it('holds one entry per key with work, none once it is done', async () => {
    const chains = new KeyChains();
    const log: string[] = [];
    const tasks = Array.from({ length: 5 }, (_, i) => gate(log, `k${i % 2}-${i}`));
    const runs = tasks.map((t, i) => chains.after(`k${i % 2}`, t.task));
    expect(chains.keys).toBe(2);
    tasks.forEach((t) => t.end(true));
    await Promise.all(runs);
    await tick();
    await tick();
    expect(chains.keys).toBe(0);
  });
});
