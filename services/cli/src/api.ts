import { createRelayClient, must, RelayApiError } from '@relay/client';
import type {
  ActivityListed,
  ActivityRow,
  Endpoint,
  ResendAccepted,
  Schemas,
  Target,
  TargetCreate,
} from '@relay/client';

/*
 * The management API calls the thin commands make, over the typed client generated from the
 * OpenAPI document (@relay/client): no request or answer shape is written here. A failure is
 * the client's RelayApiError, with the API's own `code` and message, which the command prints.
 */

export { RelayApiError as ApiError };
export type { ActivityListed, Endpoint, Target };
export type TransformationPreview = Schemas['TransformationPreview'];
export type PreviewResult = TransformationPreview['data'][number];

export interface RelayApi {
  listEndpoints(): Promise<Endpoint[]>;
  listTargets(endpointId: string): Promise<Target[]>;
  createTarget(endpointId: string, body: TargetCreate): Promise<Target>;
  /** newest first */
  listActivity(query: { endpoint_id?: string; limit?: number }): Promise<ActivityListed[]>;
  /** every target of the event's endpoint, or one */
  resend(eventId: string, targetId?: string): Promise<ResendAccepted>;
  activityRow(eventId: string): Promise<ActivityRow>;
  /** runs a draft transformation on stored requests; delivers nothing */
  previewTransformation(
    endpointId: string,
    body: Schemas['TransformationPreviewInput'],
  ): Promise<TransformationPreview>;
}

export function createApi(baseUrl: string, apiKey: string): RelayApi {
  const client = createRelayClient({ baseUrl, apiKey });
  return {
    listEndpoints: async () => (await must(client.GET('/v1/endpoints'))).data,
    listTargets: async (endpointId) =>
      (await must(client.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } }))).data,
    createTarget: (endpointId, body) =>
      must(client.POST('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } }, body })),
    listActivity: async (query) => (await must(client.GET('/v1/activity', { params: { query } }))).data,
    resend: (eventId, targetId) =>
      must(
        client.POST('/v1/activity/{eventId}/resend', {
          params: { path: { eventId } },
          body: targetId ? { target_id: targetId } : {},
        }),
      ),
    activityRow: (eventId) => must(client.GET('/v1/activity/{eventId}', { params: { path: { eventId } } })),
    previewTransformation: (endpointId, body) =>
      must(
        client.POST('/v1/endpoints/{endpointId}/transformations/preview', { params: { path: { endpointId } }, body }),
      ),
  };
}
