import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { managementApiDocument } from '../../../services/management-api/src/openapi/document';

/**
 * The generator's own rendering (libs/client/scripts/render.cjs), so this test and `npm run lint` agree. It
 * runs in a node process of its own: openapi-typescript loads ES modules, which jest's module
 * system does not; the document is read from source here and handed over in a file.
 */
function render(): string {
  const renderer = path.join(__dirname, '../../../libs/client/scripts/render.cjs');
  // a file, not stdin: a document larger than a pipe's buffer made the child's synchronous read
  // of a pipe not yet filled fail with EAGAIN
  const dir = mkdtempSync(path.join(tmpdir(), 'relay-openapi-'));
  const file = path.join(dir, 'openapi.json');
  try {
    writeFileSync(file, JSON.stringify(managementApiDocument));
    const program = `require(${JSON.stringify(renderer)}).renderSchema(JSON.parse(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'))).then((s) => process.stdout.write(s))`;
    return execFileSync(process.execPath, ['-e', program], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
