import WebSocket from 'ws';
import { managementApiDocument } from '../../../services/management-api/src/openapi/document';
import { ODD_SEGMENTS, UNDECODABLE_SEGMENTS } from '../../support/malformed-segments';
import { startManagement } from './fixture';
import type { ManagementFixture } from './fixture';

/*
 * Every route's path decoding, fuzzed on the real app and store: each path parameter of each
 * documented operation (the OpenAPI document lists exactly what express serves: openapi.test.ts),
 * and `relay listen`'s upgrade, gets bad percent-encodings (400 `malformed_path`) and odd but
 * decodable segments (a designed answer); none reaches a 500 or an error-level log line.
 */
let fx: ManagementFixture;
beforeAll(async () => {
  fx = await startManagement('mgmt-pct');
});
afterAll(async () => {
  await fx?.close();
});

type Method = 'get' | 'post' | 'patch' | 'delete';
const PLAIN_ID = 'x_0000000000000000000000';

/** `{ method, template, paths }`: one path per parameter position, the others plain ids. */
function positions(segment: string): Array<{ method: Method; template: string; path: string }> {
  return Object.entries(managementApiDocument.paths).flatMap(([template, item]) => {
    const params = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    return Object.keys(item).flatMap((method) =>
      params.map((fuzzed) => ({
        method: method as Method,
        template: `${method.toUpperCase()} ${template} [${fuzzed}]`,
        path: template.replace(/\{(\w+)\}/g, (_all, name: string) => (name === fuzzed ? segment : PLAIN_ID)),
      })),
    );
  });
}

const errorLines = () => fx.logLines().filter((l) => l.level === 'error');

it('the document has path parameters to fuzz, in every resource', () => {
  const templates = new Set(positions('%ZZ').map((p) => p.template.split(' ')[1]!.split('/')[2]));
  expect([...templates].sort()).toEqual(expect.arrayContaining(['activity', 'alert-rules', 'api-keys', 'endpoints']));
});

describe.each(UNDECODABLE_SEGMENTS)('bad percent-encoding %s in each path parameter', (segment) => {
  it('→ 400 malformed_path on every route, nothing logged as an error', async () => {
    const answers: string[] = [];
    for (const p of positions(segment)) {
      // raw: a path with bad percent-encoding, which the typed client would encode
      const res = await fx.api(p.method, p.path, ['post', 'patch'].includes(p.method) ? {} : undefined);
      answers.push(`${p.template} ${res.status} ${res.body.code}`);
    }
    expect(answers.filter((a) => !a.endsWith(' 400 malformed_path'))).toEqual([]);
    expect(errorLines()).toEqual([]);
  });
});

describe.each(ODD_SEGMENTS.map((s) => [s.length > 40 ? `${s.slice(0, 20)}… (${s.length} characters)` : s, s]))(
  'odd segment %s in each path parameter',
  (_label, segment) => {
    it('→ a designed 4xx answer with a code on every route, nothing logged as an error', async () => {
      const answers: string[] = [];
      for (const p of positions(segment)) {
        // raw: odd segments sent byte for byte, as the typed client would not
        const res = await fx.api(p.method, p.path, ['post', 'patch'].includes(p.method) ? {} : undefined);
        answers.push(`${p.template} ${res.status} ${typeof res.body.code}`);
      }
      expect(answers.filter((a) => !/ 4\d\d string$/.test(a))).toEqual([]);
      expect(errorLines()).toEqual([]);
    });
  },
);

/** `relay listen`'s upgrade (not an express route): the refusal's status and code. */
function upgrade(path: string): Promise<{ status: number; code: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${fx.baseUrl.replace(/^http/, 'ws')}${path}`, {
      headers: { authorization: `Bearer ${fx.apiKey}` },
    });
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, code: (JSON.parse(text) as { code: string }).code }));
    });
    ws.on('open', () => reject(new Error(`${path} opened a session`)));
    ws.on('error', () => undefined);
  });
}

describe('relay listen: GET /v1/endpoints/{endpoint_id}/listen', () => {
  it.each(UNDECODABLE_SEGMENTS)('%s → 400 malformed_path, nothing logged as an error', async (segment) => {
    expect(await upgrade(`/v1/endpoints/${segment}/listen`)).toEqual({ status: 400, code: 'malformed_path' });
    expect(errorLines()).toEqual([]);
  });

  it('odd segments → a designed 4xx answer', async () => {
    const answers: string[] = [];
    for (const segment of ODD_SEGMENTS) {
      const { status } = await upgrade(`/v1/endpoints/${segment}/listen`);
      answers.push(`${segment.slice(0, 20)} ${status}`);
    }
    expect(answers.filter((a) => !/ 4\d\d$/.test(a))).toEqual([]);
    expect(errorLines()).toEqual([]);
  });
});
