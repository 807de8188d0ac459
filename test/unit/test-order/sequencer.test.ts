import path from 'node:path';
import durations from '../../durations.json';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const LongestFirst = require('../../sequencer.js');

const ROOT = path.resolve(__dirname, '../../..');

/** A test file as Jest hands it to the sequencer: a context with no record of times (a fresh machine). */
function files(sizes: Record<string, number>) {
  const context = {
    config: { cache: false },
    hasteFS: { getSize: (p: string) => sizes[path.relative(ROOT, p)] ?? 0 },
  };
  return Object.keys(sizes).map((rel) => ({ path: path.join(ROOT, rel), context }));
}
const order = (tests: Array<{ path: string }>): string[] => tests.map((t) => path.relative(ROOT, t.path));

describe('the order of test files (test/sequencer.js)', () => {
  // two files test/durations.json lists, longer first by their listed seconds
  const listed: Record<string, number> = durations;
  const [longer, shorter] = ['test/e2e/chaos/chaos.test.ts', 'test/e2e/cli-listen.test.ts'].sort(
    (a, b) => listed[b]! - listed[a]!,
  ) as [string, string];
  // by size alone (Jest's order without a record) the long files would not come first
  const sizes = {
    'libs/contracts/src/ids.test.ts': 4_000,
    'test/e2e/dashboard/session.test.ts': 9_000,
    [shorter]: 6_000,
    [longer]: 5_000,
  };

  it('on a machine with no record of times, starts the files test/durations.json lists as long first, longest first', () => {
    expect(listed[longer]).toBeGreaterThan(listed[shorter]!);
    expect(order(new LongestFirst({}, {}).sort(files(sizes)))).toEqual([
      longer,
      shorter,
      // unlisted: largest first, as Jest orders them
      'test/e2e/dashboard/session.test.ts',
      'libs/contracts/src/ids.test.ts',
    ]);
  });

  it("prefers this machine's record of a file's time, and still starts the files that failed last time first", () => {
    const sequencer = new LongestFirst({}, {});
    const recorded: Record<string, number> = { 'test/e2e/dashboard/session.test.ts': 500_000 };
    sequencer.time = (t: { path: string }) => recorded[path.relative(ROOT, t.path)];
    sequencer.hasFailed = (t: { path: string }) => t.path.endsWith('ids.test.ts');
    expect(order(sequencer.sort(files(sizes)))).toEqual([
      'libs/contracts/src/ids.test.ts',
      'test/e2e/dashboard/session.test.ts',
      longer,
      shorter,
    ]);
  });
});
