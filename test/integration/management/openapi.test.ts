import { must } from '@relay/client';
import request from 'supertest';
import type { Express } from 'express';
import { managementApiDocument } from '../../../services/management-api/src/openapi/document';
import { checkResponse } from '../../support/openapi-check';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/**
 * The OpenAPI 3.1 document is the source of truth of the management API —
 * served as it is, describing every route express serves and nothing it does not, validating
 * requests, checking every response the integration tests see (fixture.ts), rendered as a page.
 */
let fx: ManagementFixture;
beforeAll(async () => {
  fx = await startManagement('mgmt-openapi');
});
afterAll(async () => {
  await fx?.close();
});

interface Layer {
  rawPath?: string | string[];
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every (method, path) express serves, its `:param`s written as the document's `{param}`. */
function mountedRoutes(app: Express): string[] {
  const out: string[] = [];
  const walk = (stack: Layer[], prefix: string): void => {
    for (const layer of stack) {
      if (layer.route) {
        const path = `${prefix}${layer.route.path}`.replace(/:(\w+)/g, '{$1}').replace(/\/$/, '') || '/';
        for (const method of Object.keys(layer.route.methods))
          out.push(`${method === '_all' ? 'ALL' : method.toUpperCase()} ${path}`);
      } else if (layer.handle?.stack) {
        for (const mount of ([] as string[]).concat(layer.rawPath ?? ''))
          walk(layer.handle.stack, `${prefix}${mount === '/' ? '' : mount}`);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return [...new Set(out)].sort();
}

const documented = (): string[] =>
  Object.entries(managementApiDocument.paths)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();

describe('the OpenAPI document', () => {
  it('is served at /v1/openapi.json without a key, exactly as the API validates with it', async () => {
    const res = await request(fx.app).get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(managementApiDocument)));
    expect(res.body.openapi).toBe('3.1.0');
  });

  it('describes every route express has mounted, and express serves every operation it describes', () => {
    // the only route that is not an operation: targets' 405 for a method the path does not serve
    const catchAll = 'ALL /v1/endpoints/{endpointId}/targets/{*rest}';
    // the dashboard's own sign-in routes (docs/dashboard.md, docs/members.md) are not the API's operations
    const dashboard = / \/session(\/|$)/;
    const mounted = mountedRoutes(fx.express).filter((r) => r !== catchAll && !dashboard.test(r));
    expect(mountedRoutes(fx.express)).toContain(catchAll);
    expect(mounted).toEqual(documented());
  });

  it('names the least role of every operation that needs a key, and the 401 and 403 it answers', () => {
    for (const [path, item] of Object.entries(managementApiDocument.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const open = ['/healthz', '/readyz', '/v1/openapi.json', '/v1/docs'].includes(path);
        expect([method, path, op['x-relay-role'] === undefined]).toEqual([method, path, open]);
        if (open) continue;
        expect(Object.keys(op.responses as object)).toEqual(
          expect.arrayContaining(op['x-relay-role'] === 'viewer' ? ['401', '500'] : ['401', '403', '500']),
        );
      }
    }
  });

  it('the response check fails a body with a field the document does not know, an undocumented status, and an undocumented route', () => {
    const endpoint = { method: 'GET', url: '/v1/endpoints', contentType: 'application/json; charset=utf-8' };
    expect(checkResponse({ ...endpoint, status: 200, text: JSON.stringify({ data: [] }) })).toEqual([]);
    expect(checkResponse({ ...endpoint, status: 200, text: JSON.stringify({ data: [], total: 0 }) })).toEqual([
      expect.stringContaining('listEndpoints body'),
    ]);
    expect(checkResponse({ ...endpoint, status: 418, text: JSON.stringify({ code: 'teapot', message: 'x' }) })).toEqual(
      [expect.stringContaining('documents no 418')],
    );
    expect(
      checkResponse({ ...endpoint, status: 401, text: JSON.stringify({ code: 'forbidden', message: 'x' }) }),
    ).toEqual([expect.stringContaining('listEndpoints body/code')]);
    expect(
      checkResponse({ method: 'GET', url: '/v1/widgets', status: 200, contentType: 'application/json', text: '{}' }),
    ).toEqual([expect.stringContaining('no operation')]);
    expect(
      checkResponse({
        method: 'GET',
        url: '/v1/widgets',
        status: 404,
        contentType: 'application/json',
        text: JSON.stringify({ code: 'not_found', message: 'Not found.' }),
      }),
    ).toEqual([]);
  });

  it('is rendered as a reference page at /v1/docs: every operation and schema, no script, no key', async () => {
    const res = await request(fx.app).get('/v1/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.text).not.toMatch(/<script/i);
    for (const item of Object.values(managementApiDocument.paths)) {
      for (const op of Object.values(item)) expect(res.text).toContain(`id="${String(op.operationId)}"`);
    }
    for (const name of Object.keys(managementApiDocument.components.schemas))
      expect(res.text).toContain(`id="schema-${name}"`);
  });
});

describe('requests are validated from the document', () => {
  it('a body is checked against its schema: every problem at once, by field, in Relay’s error shape', async () => {
    // raw: a body the document refuses, for every problem at once
    const res = await fx.api('post', '/v1/api-keys', { role: 'superuser', name: '', id: 'key_mine', scope: 'all' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'validation_failed',
      message: expect.stringContaining('role: must be one of viewer, editor, admin, owner'),
      errors: expect.arrayContaining([
        { field: 'role', message: 'must be one of viewer, editor, admin, owner' },
        { field: 'name', message: 'must not be empty' },
        { field: 'id', message: 'is not a known field' },
        { field: 'scope', message: 'is not a known field' },
      ]),
    });
    expect(res.body.errors).toHaveLength(4);
  });

  it('a body that is not an object, or is missing, names the body or the required field', async () => {
    // raw: bodies that are not objects, missing, or sent as text/plain
    expect((await fx.api('patch', '/v1/account/plan', [1])).body.errors).toEqual([
      { field: '(body)', message: 'must be a JSON object' },
    ]);
    // raw: a body left out
    expect((await fx.api('post', '/v1/api-keys')).body.errors).toEqual([{ field: 'role', message: 'is required' }]);
    // a body of another type is not taken for "no change"
    // raw: the same JSON under Content-Type text/plain
    const plain = await fx
      .api('patch', '/v1/account/plan')
      .set('content-type', 'text/plain')
      .send('{"monthly_accepted_events":1}');
    expect(plain.status).toBe(400);
    expect(plain.body.errors).toEqual([
      { field: '(body)', message: 'must be a JSON object sent with Content-Type: application/json' },
    ]);
  });

  it('numbers and bounds: a query parameter is read as the number the document declares', async () => {
    // raw: query values the document refuses
    const res = await fx.api('get', '/v1/audit?limit=0&before=yesterday');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'limit', message: 'must be an integer from 1 to 200' },
        expect.objectContaining({ field: 'before' }),
      ]),
    );
    await must(fx.client.GET('/v1/audit', { params: { query: { limit: 2 } } }));
  });

  it('on endpoints the settings validators’ own messages stay, with every problem in one 400', async () => {
    // raw: settings the document refuses, all at once
    const res = await fx.api('post', '/v1/endpoints', {
      name: 'e',
      methods: ['FETCH'],
      captcha: 5,
      ip_access: { allow: ['not-an-ip'] },
      colour: 'red',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'methods', message: 'must be a non-empty list of POST, PUT, PATCH, DELETE, GET, HEAD' },
        { field: 'colour', message: 'is not a known field' },
        expect.objectContaining({ field: 'captcha' }),
        expect.objectContaining({ field: 'ip_access.allow[0]' }),
      ]),
    );
  });
});
