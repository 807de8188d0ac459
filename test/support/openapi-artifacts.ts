import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { _ } from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import { managementApiDocument } from '../../services/management-api/src/openapi/document';
import type { Schema } from '../../services/management-api/src/openapi/kit';
import { DOC_ID, documentAjv, pointer, resolveRef } from '../../services/management-api/src/openapi/request-validator';

/*
 * What test/support/openapi-check.ts checks responses with, built once per Jest run (the root
 * globalSetup, test/openapi-setup.ts) instead of in every file: the management API's OpenAPI
 * document as JSON, and one module of standalone validators, one per JSON response the document
 * describes. Building the document and compiling its schemas took seconds of CPU in each of the
 * many files that call the API; reading both takes about a tenth of a second.
 */

export type ApiDocument = typeof managementApiDocument;
export const DOC_FILE = 'openapi.json';
export const VALIDATORS_FILE = 'validators.js';
/** the export of the validator of the refusals any unknown route or method may get */
export const GENERIC_ERROR = 'genericError';

const GENERIC_ERROR_SCHEMA: Schema = {
  type: 'object',
  required: ['code', 'message'],
  additionalProperties: false,
  properties: {
    code: { enum: ['malformed_path', 'unauthorized', 'not_found', 'method_not_allowed'] },
    message: { type: 'string' },
  },
};

/** Where a response's JSON schema is: its own place, or the shared response it refers to. */
export function responseSchemaPointer(template: string, method: string, key: string, response: Schema): string {
  const base =
    typeof response.$ref === 'string'
      ? response.$ref.replace(/^#/, '')
      : `/${pointer('paths', template, method, 'responses', key)}`;
  return `${base}/${pointer('content', 'application/json', 'schema')}`;
}

/** Every JSON response schema of the document, by pointer. */
function jsonResponsePointers(doc: ApiDocument): string[] {
  const pointers = new Set<string>();
  for (const [template, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops as Record<string, { responses?: Record<string, Schema> }>))
      for (const [key, response] of Object.entries(op.responses ?? {})) {
        const content = resolveRef(doc, response).content as Record<string, unknown> | undefined;
        if (content?.['application/json']) pointers.add(responseSchemaPointer(template, method, key, response));
      }
  return [...pointers];
}

/** Writes the document and its validators under `cacheDir/<hash of the document>` (kept while the document is the same); returns that directory. */
export function writeOpenApiArtifacts(cacheDir: string): string {
  const json = JSON.stringify(managementApiDocument);
  const dir = path.join(cacheDir, createHash('sha256').update(json).digest('hex').slice(0, 16));
  if (existsSync(path.join(dir, VALIDATORS_FILE))) return dir;
  const ajv = documentAjv(managementApiDocument, {
    code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  });
  const names: Record<string, string> = { [GENERIC_ERROR]: GENERIC_ERROR };
  ajv.addSchema({ $id: GENERIC_ERROR, ...GENERIC_ERROR_SCHEMA });
  jsonResponsePointers(managementApiDocument).forEach((at, i) => {
    ajv.addSchema({ $id: `response${i}`, $ref: `${DOC_ID}#${at}` });
    names[at] = `response${i}`;
  });
  mkdirSync(cacheDir, { recursive: true });
  // written aside and renamed: a concurrent run sees the whole directory or none
  const tmp = mkdtempSync(path.join(cacheDir, 'tmp-'));
  writeFileSync(path.join(tmp, DOC_FILE), json);
  writeFileSync(path.join(tmp, VALIDATORS_FILE), standaloneCode(ajv, names));
  try {
    renameSync(tmp, dir);
  } catch {
    // another run wrote the same document meanwhile
    rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}
