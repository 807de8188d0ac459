import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import type { Schema } from '../../services/management-api/src/openapi/kit';
import { resolveRef } from '../../services/management-api/src/openapi/request-validator';
import { DOC_FILE, GENERIC_ERROR, VALIDATORS_FILE, responseSchemaPointer } from './openapi-artifacts';
import type { ApiDocument } from './openapi-artifacts';

/**
 * Checks a management API response against the OpenAPI document (the document cannot
 * drift): the request's operation must document the status, and the body must match that
 * response's schema — every object in the document names all its fields, so a field the
 * document does not know fails too. A request that matches no operation may only be refused the
 * way unknown routes are (400/401/404/405 with an error body). Used by every integration test
 * through test/integration/management/fixture.ts and by every end-to-end `stack.api()` call.
 * The document and its validators are built once per run (test/support/openapi-artifacts.ts).
 */

export interface ObservedResponse {
  method: string;
  /** the request path, with or without its query string */
  url: string;
  status: number;
  contentType: string | undefined;
  /** the raw body text */
  text: string;
}

const DIR = process.env.RELAY_OPENAPI_DIR;
if (!DIR)
  throw new Error(
    'RELAY_OPENAPI_DIR is not set: the root globalSetup of jest.config.js (test/openapi-setup.ts) sets it',
  );
const DOC = JSON.parse(readFileSync(path.join(DIR, DOC_FILE), 'utf8')) as ApiDocument;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const VALIDATORS = require(path.join(DIR, VALIDATORS_FILE)) as Record<string, ValidateFunction>;
const validatorAt = (pointer: string): ValidateFunction => {
  const v = VALIDATORS[pointer];
  if (!v) throw new Error(`no validator for ${pointer}: the document's artifacts are stale (test/openapi-setup.ts)`);
  return v;
};
const genericError = validatorAt(GENERIC_ERROR);

/** Document path templates as patterns, the most literal first (`/x/{id}/audit` before `/x/{id}/{y}`). */
const TEMPLATES = Object.keys(DOC.paths)
  .map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    literals: template.split('/').filter((s) => s && !s.startsWith('{')).length,
  }))
  .sort((a, b) => b.literals - a.literals);

export function templateOf(path: string): string | undefined {
  return TEMPLATES.find((t) => t.pattern.test(path))?.template;
}

/** Every way the response departs from the document; [] when it matches. */
export function checkResponse(r: ObservedResponse): string[] {
  const path = r.url.split('?')[0]!;
  const method = r.method.toLowerCase();
  const label = `${r.method.toUpperCase()} ${path} → ${r.status}`;
  const template = templateOf(path);
  const op = template ? DOC.paths[template]![method] : undefined;
  let body: unknown = undefined;
  const isJson = (r.contentType ?? '').startsWith('application/json');
  if (isJson) {
    try {
      body = JSON.parse(r.text);
    } catch {
      return [`${label}: the body is not JSON`];
    }
  }
  if (!template || !op) {
    // no operation: only the refusals of an unknown route or method
    if (![400, 401, 404, 405].includes(r.status) || !isJson || !genericError(body))
      return [`${label}: no operation in the document for ${r.method.toUpperCase()} ${template ?? path}`];
    return [];
  }
  const responses = op.responses as Record<string, Schema>;
  const key = [String(r.status), `${String(r.status)[0]}XX`, 'default'].find((k) => responses[k]);
  if (!key) return [`${label}: ${String(op.operationId)} documents no ${r.status} response`];
  const content = resolveRef(DOC, responses[key]!).content as Record<string, unknown> | undefined;
  if (!content)
    return r.text === '' ? [] : [`${label}: ${String(op.operationId)} documents no body for ${r.status}, got one`];
  const mediaType = Object.keys(content).find((m) => (r.contentType ?? '').startsWith(m));
  if (!mediaType)
    return [
      `${label}: content type ${r.contentType ?? '(none)'} is not documented (${Object.keys(content).join(', ')})`,
    ];
  if (mediaType !== 'application/json') return [];
  const validate = validatorAt(responseSchemaPointer(template, method, key, responses[key]!));
  if (validate(body)) return [];
  return (validate.errors ?? [])
    .slice(0, 8)
    .map(
      (e) =>
        `${label}: ${String(op.operationId)} body${e.instancePath} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`,
    );
}
