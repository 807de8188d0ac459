import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRESET_TABLE_BEGIN, PRESET_TABLE_END, presetTable } from './table';

/** Issue 24: the docs' preset table is generated from the catalog and cannot drift from it. */
test('the preset table committed in docs/inbound-auth.md is the one the catalog generates (npm run docs:presets)', () => {
  const docs = readFileSync(join(__dirname, '../../../../../docs/inbound-auth.md'), 'utf8');
  const begin = docs.indexOf(PRESET_TABLE_BEGIN);
  const end = docs.indexOf(PRESET_TABLE_END);
  expect(begin).toBeGreaterThanOrEqual(0);
  expect(docs.slice(begin, end + PRESET_TABLE_END.length)).toBe(presetTable());
});
