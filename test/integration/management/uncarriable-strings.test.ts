import { must } from '@relay/client';
import { managementApiDocument } from '../../../services/management-api/src/openapi/document';
import type { Schema } from '../../../services/management-api/src/openapi/kit';
import {
  UNCARRIABLE_KEY_MESSAGE,
  UNCARRIABLE_MESSAGE,
} from '../../../services/management-api/src/openapi/string-safety';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/*
 * A U+0000 (the store refuses it, a header cannot carry it) or a lone
 * surrogate (no UTF-8 form) in any string field of any write route is a 400 naming the field —
 * never a 500 from the store, never a silently changed value. The cases are generated from the
 * OpenAPI document: every string the request body schema of every POST/PATCH/DELETE reaches,
 * every path parameter, and the query parameters (filters) of the reads.
 */

type Segment = string | number;
interface Case {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  /** the document's field name the 400 must give */
  field: string;
  send: (bad: string) => { url: string; body?: unknown };
}

const doc = managementApiDocument as unknown as {
  paths: Record<string, Record<string, Schema>>;
  components: Record<string, Record<string, Schema>>;
};
const resolve = (s: Schema): Schema => {
  let at = s;
  for (let hops = 0; typeof at.$ref === 'string' && hops < 10; hops++)
    at = (at.$ref as string)
      .split('/')
      .slice(1)
      .reduce<any>((n, k) => n[k], doc) as Schema;
  return at;
};

/** Where the schema lets a string be: every property, item, map value and union branch (any value counts as one). */
function stringPaths(schema: Schema, at: Segment[] = [], depth = 0): Segment[][] {
  const s = resolve(schema);
  if (depth > 8) return [];
  const types = ([] as unknown[]).concat(s.type ?? []);
  const out: Segment[][] = [];
  const branches = [
    ...((s.oneOf as Schema[]) ?? []),
    ...((s.anyOf as Schema[]) ?? []),
    ...((s.allOf as Schema[]) ?? []),
  ];
  const untyped = types.length === 0 && branches.length === 0 && !s.properties && !('const' in s) && !('enum' in s);
  if (types.includes('string') || untyped) out.push(at);
  for (const [k, p] of Object.entries((s.properties as Record<string, Schema>) ?? {}))
    if (resolve(p).readOnly !== true) out.push(...stringPaths(p, [...at, k], depth + 1));
  if (typeof s.additionalProperties === 'object')
    out.push(...stringPaths(s.additionalProperties as Schema, [...at, 'X-Sample'], depth + 1));
  if (s.items) out.push(...stringPaths(s.items as Schema, [...at, 0], depth + 1));
  for (const b of branches) out.push(...stringPaths(b, at, depth + 1));
  return out;
}

/** `['inbound_auth', 'tokens', 0]` → `inbound_auth.tokens[0]`, as the API names fields. */
const fieldName = (segments: Segment[]): string =>
  segments.reduce<string>((f, s) => (typeof s === 'number' ? `${f}[${s}]` : f === '' ? s : `${f}.${s}`), '');
/** The smallest body that puts `value` at `segments`. */
const bodyWith = (segments: Segment[], value: unknown): unknown =>
  segments.reduceRight<unknown>((inner, s) => (typeof s === 'number' ? [inner] : { [s]: inner }), value);

const fill = (template: string, params: Record<string, string>): string =>
  template.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? 'x_1'));

function cases(): Case[] {
  const out: Case[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'post', 'patch', 'delete'] as const) {
      const op = item[method];
      if (!op || !op['x-relay-role']) continue;
      const params = (op.parameters as Schema[] | undefined) ?? [];
      for (const p of params.filter((x) => x.in === 'path')) {
        out.push({
          method,
          path: template,
          field: String(p.name),
          send: (bad) => ({ url: fill(template, { [String(p.name)]: bad }) }),
        });
      }
      for (const p of params.filter(
        (x) => x.in === 'query' && ([] as unknown[]).concat(resolve(x.schema as Schema).type).includes('string'),
      )) {
        out.push({
          method,
          path: template,
          field: String(p.name),
          send: (bad) => ({ url: `${fill(template, {})}?${p.name}=${encodeURIComponent(bad)}` }),
        });
      }
      const schema = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content?.[
        'application/json'
      ]?.schema;
      if (method === 'get' || !schema) continue;
      const seen = new Set<string>();
      for (const segments of stringPaths(schema)) {
        const field = fieldName(segments);
        if (field === '' || seen.has(field)) continue;
        seen.add(field);
        out.push({
          method,
          path: template,
          field,
          send: (bad) => ({ url: fill(template, {}), body: bodyWith(segments, `a${bad}b`) }),
        });
      }
    }
  }
  return out;
}

let fx: ManagementFixture;
beforeAll(async () => {
  fx = await startManagement('mgmt-uncarriable');
});
afterAll(async () => {
  await fx?.close();
});

const all = cases();
const bodyCases = all.filter((c) => c.send('').body !== undefined);

describe('strings no store or header can carry are a 400 naming the field', () => {
  it('the document yields cases for every write route with a body', () => {
    const writes = Object.entries(doc.paths).flatMap(([p, item]) =>
      ['post', 'patch'].filter((m) => (item[m] as Schema | undefined)?.requestBody).map((m) => `${m} ${p}`),
    );
    expect(new Set(bodyCases.map((c) => `${c.method} ${c.path}`))).toEqual(new Set(writes));
    expect(bodyCases.length).toBeGreaterThan(40);
  });

  it.each(all.map((c) => [`${c.method.toUpperCase()} ${c.path} ${c.field}`, c] as const))(
    'U+0000 in %s',
    async (_name, c) => {
      const { url, body } = c.send('\u0000');
      // raw: every write of the document by its path, with a string no store can carry
      const res = await fx.api(c.method, url, body);
      expect(res.status).toBe(400);
      expect(res.body.errors).toContainEqual({ field: c.field, message: UNCARRIABLE_MESSAGE });
    },
  );

  // a lone surrogate has no percent-encoding (no UTF-8 form): it can only arrive in a JSON body
  it.each(bodyCases.map((c) => [`${c.method.toUpperCase()} ${c.path} ${c.field}`, c] as const))(
    'lone surrogates in %s',
    async (_name, c) => {
      for (const bad of ['\ud800', '\udc00', '\ud83d\ud83d']) {
        // raw: every write of the document by its path, with a lone surrogate
        const res = await fx.api(c.method, c.send(bad).url, c.send(bad).body);
        expect(res.status).toBe(400);
        expect(res.body.errors).toContainEqual({ field: c.field, message: UNCARRIABLE_MESSAGE });
      }
    },
  );

  it('a well-formed pair (an emoji) is a character like any other', async () => {
    const created = await must(fx.client.POST('/v1/endpoints', { body: { name: 'orders \ud83d\udce6' } }));
    expect(created.name).toBe('orders 📦');
  });

  it('a field name with U+0000 is refused too, naming where it is', async () => {
    // raw: a body field name the document has no place for
    const res = await fx.api('post', '/v1/endpoints', { name: 'x', 'na\u0000me': 'y' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field: '(body)', message: UNCARRIABLE_KEY_MESSAGE });
  });
});
