import Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { managementApiDocument } from '../../services/management-api/src/openapi/document';
import type { Schema } from '../../services/management-api/src/openapi/kit';

/**
 * Checks a management API response against the OpenAPI document (the document cannot
 * drift): the request's operation must document the status, and the body must match that
 * response's schema — every object in the document names all its fields, so a field the
 * document does not know fails too. A request that matches no operation may only be refused the
 * way unknown routes are (400/401/404/405 with an error body). Used by every integration test
 * through test/integration/management/fixture.ts and by every end-to-end `stack.api()` call.
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

const DOC = managementApiDocument;
const DOC_ID = 'relay-openapi.json';

const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, discriminator: true, logger: false });
addFormats(ajv);
ajv.addVocabulary([
  'openapi',
  'info',
  'servers',
  'security',
  'tags',
  'paths',
  'components',
  'webhooks',
  'jsonSchemaDialect',
  'externalDocs',
]);
ajv.addSchema(DOC as unknown as Schema, DOC_ID);
const compiled = new Map<string, ValidateFunction>();
const validatorAt = (pointer: string): ValidateFunction => {
  let v = compiled.get(pointer);
  if (!v) {
    v = ajv.compile({ $ref: `${DOC_ID}#${pointer}` });
    compiled.set(pointer, v);
  }
  return v;
};
const escape = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

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

const GENERIC_ERROR: Schema = {
  type: 'object',
  required: ['code', 'message'],
  additionalProperties: false,
  properties: {
    code: { enum: ['malformed_path', 'unauthorized', 'not_found', 'method_not_allowed'] },
    message: { type: 'string' },
  },
};
const genericError = ajv.compile(GENERIC_ERROR);

function resolveResponse(response: Schema): { pointer: string; response: Schema } | null {
  if (typeof response.$ref !== 'string') return null;
  const name = response.$ref.split('/').pop()!;
  return { pointer: `/components/responses/${escape(name)}`, response: DOC.components.responses[name]! };
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
  const base = `/paths/${escape(template)}/${method}/responses/${escape(key)}`;
  const resolved = resolveResponse(responses[key]!) ?? { pointer: base, response: responses[key]! };
  const content = resolved.response.content as Record<string, unknown> | undefined;
  if (!content)
    return r.text === '' ? [] : [`${label}: ${String(op.operationId)} documents no body for ${r.status}, got one`];
  const mediaType = Object.keys(content).find((m) => (r.contentType ?? '').startsWith(m));
  if (!mediaType)
    return [
      `${label}: content type ${r.contentType ?? '(none)'} is not documented (${Object.keys(content).join(', ')})`,
    ];
  if (mediaType !== 'application/json') return [];
  const validate = validatorAt(`${resolved.pointer}/content/${escape(mediaType)}/schema`);
  if (validate(body)) return [];
  return (validate.errors ?? [])
    .slice(0, 8)
    .map(
      (e) =>
        `${label}: ${String(op.operationId)} body${e.instancePath} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`,
    );
}
