// The client's types from the OpenAPI document: what src/schema.ts must hold. Used by
// generate.mjs (writes or checks the file) and by test/unit/client/schema.test.ts (the unit tier's check).
const { default: openapiTS, astToString } = require('openapi-typescript');

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
      if (typeof tag !== 'string')
        throw new Error(`discriminator ${d.propertyName}: ${choice.$ref ?? 'an inline choice'} has no const tag`);
      mapping[tag] = choice.$ref;
    }
    d.mapping = mapping;
  }
  for (const value of Object.values(node)) mapDiscriminators(value, schemas);
}

/** The text of src/schema.ts for `managementApiDocument`. */
async function renderSchema(managementApiDocument) {
  // a copy: openapi-typescript annotates the object it walks, and the mapping is added to it
  const document = JSON.parse(JSON.stringify(managementApiDocument));
  mapDiscriminators(document, document.components.schemas);
  const ast = await openapiTS(document, {
    alphabetize: false,
    exportType: false,
    rootTypes: false,
    emptyObjectsUnknown: true,
    defaultNonNullable: false,
  });
  return HEADER + astToString(ast);
}

module.exports = { renderSchema };
