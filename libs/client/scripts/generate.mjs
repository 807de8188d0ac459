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
import openapiTS, { astToString } from 'openapi-typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
const target = path.resolve(here, '..', 'src', 'schema.ts');
const documentModule = path.resolve(here, '..', '..', '..', 'services', 'management-api', 'dist', 'openapi', 'document.js');

const HEADER = `/**
 * Generated from the management API's OpenAPI document by openapi-typescript
 * (libs/client/scripts/generate.mjs). Do not edit: change the document in
 * services/management-api/src/openapi and run \`npm run client:generate\`.
 * \`npm run lint\` fails when this file and the document disagree.
 */

`;

/**
 * A discriminator without `mapping` means, by the OpenAPI rules, that each choice's tag is its
 * schema's name; the document leaves `mapping` out because ajv, its request validator, refuses
 * it, and says each choice's tag as a `const` instead. The mapping is written from those consts
 * here, so the types read `type: "NONE"` rather than `type: "InboundAuthInputNone"`.
 */
function mapDiscriminators(node, schemas) {
  if (Array.isArray(node)) return node.forEach((n) => mapDiscriminators(n, schemas));
  if (node === null || typeof node !== 'object') return;
  const d = node.discriminator;
  if (d && !d.mapping && Array.isArray(node.oneOf)) {
    const mapping = {};
    for (const choice of node.oneOf) {
      const name = choice.$ref?.replace('#/components/schemas/', '');
      const tag = schemas[name]?.properties?.[d.propertyName]?.const;
      if (typeof tag !== 'string') throw new Error(`discriminator ${d.propertyName}: ${choice.$ref ?? 'an inline choice'} has no const tag`);
      mapping[tag] = choice.$ref;
    }
    d.mapping = mapping;
  }
  for (const value of Object.values(node)) mapDiscriminators(value, schemas);
}

async function render() {
  const { managementApiDocument } = createRequire(import.meta.url)(documentModule);
  // a copy: openapi-typescript annotates the object it walks
  const document = JSON.parse(JSON.stringify(managementApiDocument));
  mapDiscriminators(document, document.components.schemas);
  const ast = await openapiTS(document, { alphabetize: false, exportType: false, rootTypes: false, emptyObjectsUnknown: true });
  return HEADER + astToString(ast);
}

const wanted = await render();
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
