import { createRelayClient } from '@relay/client';
import type { ActivityRow, RelayClient } from '@relay/client';
import { eventually } from './infra';
import { checkResponse } from './openapi-check';

/**
 * The typed management API client (`@relay/client`, docs/client.md) as the tests use it: with
 * an API key, and every response checked against the OpenAPI document as it arrives (so
 * the document cannot drift) — a response the document does not describe throws, failing the
 * test that received it. Raw HTTP checks (malformed bodies, headers) stay on supertest or fetch.
 */
export function testClient(baseUrl: string, apiKey: string): RelayClient {
  const client = createRelayClient({ baseUrl, apiKey });
  client.use({
    async onResponse({ request, response }) {
      const url = new URL(request.url);
      const problems = checkResponse({
        method: request.method,
        url: `${url.pathname}${url.search}`,
        status: response.status,
        contentType: response.headers.get('content-type') ?? undefined,
        text: await response.clone().text(),
      });
      if (problems.length > 0)
        throw new Error(`management API response departs from the OpenAPI document:\n  ${problems.join('\n  ')}`);
      return response;
    },
  });
  return client;
}

/**
 * The activity row of `eventId` once `ok` holds for it: the writer writes a row a moment after
 * its request, and its deliveries' attempts after that.
 */
export function activityRowWhen(
  client: RelayClient,
  eventId: string,
  ok: (row: ActivityRow) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<ActivityRow> {
  return eventually(
    async () => {
      const { data } = await client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } });
      return data && ok(data) ? data : undefined;
    },
    timeoutMs,
    what,
  );
}
