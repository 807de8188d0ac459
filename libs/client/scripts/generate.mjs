// Writes src/schema.ts, the management API's paths and schemas as TypeScript types, from the
// OpenAPI document the management API builds from code (services/management-api/src/openapi).
//   node libs/client/scripts/generate.mjs          write src/schema.ts when it differs
//   node libs/client/scripts/generate.mjs --check  exit 1 when the committed file differs
// Needs the management API built (`tsc -b`): the document is read from its compiled module,
// the same object the service serves at /v1/openapi.json.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { renderSchema } = require('./render.cjs');
const here = path.dirname(fileURLToPath(import.meta.url));
const target = path.resolve(here, '..', 'src', 'schema.ts');
const documentModule = path.resolve(
  here,
  '..',
  '..',
  '..',
  'services',
  'management-api',
  'dist',
  'openapi',
  'document.js',
);

const wanted = await renderSchema(require(documentModule).managementApiDocument);
let committed = '';
try {
  committed = readFileSync(target, 'utf8');
} catch {
  committed = '';
}
if (process.argv.includes('--check')) {
  if (committed !== wanted) {
    process.stderr.write(
      `libs/client/src/schema.ts does not match the management API's OpenAPI document.\n` +
        `Run \`npm run client:generate\` (after \`tsc -b\`) and commit the result.\n`,
    );
    process.exit(1);
  }
} else if (committed !== wanted) {
  writeFileSync(target, wanted);
  process.stdout.write(`${path.relative(process.cwd(), target)} written\n`);
}
