import { RelayApiError, createRelayClient, must } from './index';

/** A fetch that records what it was asked and answers with `answer`. */
function recordingFetch(answer: () => Response) {
  const seen: Request[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    seen.push(new Request(input, init));
    return answer();
  };
  return { fetch: fetch as typeof globalThis.fetch, seen };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the typed management API client', () => {
  it('sends the API key as a bearer token, the path parameters in the path and the body as JSON', async () => {
    const f = recordingFetch(() => json(200, { id: 'ep_1' }));
    const client = createRelayClient({ baseUrl: 'http://api.test', apiKey: 'rk_abc', fetch: f.fetch });
    await must(
      client.PATCH('/v1/endpoints/{endpointId}', { params: { path: { endpointId: 'ep_1' } }, body: { name: 'n' } }),
    );
    const req = f.seen[0]!;
    expect(req.method).toBe('PATCH');
    expect(req.url).toBe('http://api.test/v1/endpoints/ep_1');
    expect(req.headers.get('authorization')).toBe('Bearer rk_abc');
    expect(req.headers.get('content-type')).toBe('application/json');
    expect(await req.json()).toEqual({ name: 'n' });
  });

  it('puts query parameters in the query and leaves out the ones not given', async () => {
    const f = recordingFetch(() => json(200, { data: [], next_cursor: null }));
    const client = createRelayClient({ baseUrl: 'http://api.test', fetch: f.fetch });
    await must(client.GET('/v1/activity', { params: { query: { limit: 5, endpoint_id: 'ep_1' } } }));
    const url = new URL(f.seen[0]!.url);
    expect(Object.fromEntries(url.searchParams)).toEqual({ limit: '5', endpoint_id: 'ep_1' });
    expect(f.seen[0]!.headers.get('authorization')).toBeNull();
  });

  it('must() answers the data of a success and undefined for 204', async () => {
    const client = createRelayClient({
      baseUrl: 'http://api.test',
      fetch: recordingFetch(() => json(200, { data: [] })).fetch,
    });
    await expect(must(client.GET('/v1/endpoints'))).resolves.toEqual({ data: [] });
    const empty = createRelayClient({
      baseUrl: 'http://api.test',
      fetch: recordingFetch(() => new Response(null, { status: 204 })).fetch,
    });
    await expect(
      must(empty.DELETE('/v1/api-keys/{keyId}', { params: { path: { keyId: 'key_1' } } })),
    ).resolves.toBeUndefined();
  });

  it('must() throws the documented code, message and field errors of a failure', async () => {
    const body = {
      code: 'validation_failed',
      message: 'name: is required',
      errors: [{ field: 'name', message: 'is required' }],
    };
    const client = createRelayClient({
      baseUrl: 'http://api.test',
      fetch: recordingFetch(() => json(400, body)).fetch,
    });
    const err = await must(client.POST('/v1/endpoints', { body: { name: '' } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RelayApiError);
    expect(err).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'name: is required',
      errors: body.errors,
    });
  });

  it('must() names the status when a failure has no JSON body', async () => {
    const client = createRelayClient({
      baseUrl: 'http://api.test',
      fetch: recordingFetch(() => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }))
        .fetch,
    });
    await expect(must(client.GET('/v1/endpoints'))).rejects.toMatchObject({
      status: 502,
      code: 'http_502',
      message: 'Bad Gateway',
    });
  });

  it('must() reports an API it could not reach as status 0, code network', async () => {
    const client = createRelayClient({
      baseUrl: 'http://api.test',
      fetch: (async () => {
        throw new TypeError('fetch failed');
      }) as typeof globalThis.fetch,
    });
    await expect(must(client.GET('/v1/endpoints'))).rejects.toMatchObject({ status: 0, code: 'network' });
  });
});
