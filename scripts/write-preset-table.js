// Rewrites the generated preset table in docs/inbound-auth.md from the preset catalog
// (libs/endpoints auth/presets). Run after `tsc -b`: `npm run docs:presets`. The unit test
// libs/endpoints/src/auth/presets/table.test.ts fails while the committed table differs.
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { presetTable } = require('../libs/endpoints/dist/index.js');

const file = join(__dirname, '..', 'docs', 'inbound-auth.md');
const text = readFileSync(file, 'utf8');
const begin = text.indexOf('<!-- preset-table:begin');
const endMarker = '<!-- preset-table:end -->';
const end = text.indexOf(endMarker);
if (begin < 0 || end < begin) throw new Error('docs/inbound-auth.md has no preset-table markers');
writeFileSync(file, text.slice(0, begin) + presetTable() + text.slice(end + endMarker.length));
console.log('docs/inbound-auth.md: preset table written');
