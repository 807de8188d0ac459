import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { managementApiDocument } from '../../../services/management-api/src/openapi/document';

/**
 * The generator's own rendering (libs/client/scripts/render.cjs), so this test and `npm run lint` agree. It
 * runs in a node process of its own: openapi-typescript loads ES modules, which jest's module
 * system does not; the document is read from source here and handed over on stdin.
 */
function render(): string {
  const renderer = path.join(__dirname, '../../../libs/client/scripts/render.cjs');
  const program = `require(${JSON.stringify(renderer)}).renderSchema(JSON.parse(require('node:fs').readFileSync(0, 'utf8'))).then((s) => process.stdout.write(s))`;
  return execFileSync(process.execPath, ['-e', program], {
    input: JSON.stringify(managementApiDocument),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

describe('the typed client', () => {
  it('holds the types of the OpenAPI document as it is now (else: npm run client:generate, and commit)', () => {
    const committed = readFileSync(path.join(__dirname, '../../../libs/client/src/schema.ts'), 'utf8');
    const wanted = render();
    if (committed !== wanted)
      throw new Error(
        "libs/client/src/schema.ts does not match the management API's OpenAPI document: run `npm run client:generate` (after `tsc -b`) and commit it",
      );
    expect(committed).toBe(wanted);
  });
});
