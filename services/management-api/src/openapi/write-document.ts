import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { managementApiDocument } from './document';

/**
 * Writes the OpenAPI document to `services/management-api/dist/openapi.json`, where the linter
 * reads it (`npm run lint`; the unit test `document.test.ts` does the same) and client
 * generators can.
 */
export function writeDocument(dir = path.resolve(__dirname, '..', '..', 'dist')): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'openapi.json');
  writeFileSync(file, `${JSON.stringify(managementApiDocument, null, 2)}\n`);
  return file;
}

if (require.main === module) process.stdout.write(`${writeDocument()}\n`);
