// Jest's order of test files (jest.config.js `testSequencer`), longest first, so that no long
// file starts last and leaves one worker running it alone at the end of the run.
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;
const expected = require('./durations.json');

const ROOT = path.resolve(__dirname, '..');

/**
 * A file's expected time is Jest's record of its last run on this machine or, on a machine
 * without one (a fresh CI runner, where Jest alone would order by file size), its seconds in
 * test/durations.json (`node scripts/test-durations.js` writes them). Files failed last time
 * still come first; files with neither figure follow the others in Jest's order.
 */
class LongestFirst extends Sequencer {
  sort(tests) {
    const ms = (test) =>
      this.time(test) ?? (expected[path.relative(ROOT, test.path).split(path.sep).join('/')] ?? 0) * 1000;
    const failed = (test) => (this.hasFailed(test) ? 1 : 0);
    // Array.prototype.sort is stable: ties keep Jest's order
    return super.sort(tests).sort((a, b) => failed(b) - failed(a) || ms(b) - ms(a));
  }
}

module.exports = LongestFirst;
