import { must, relay } from '../../api';
import type { Abilities } from '../../lib/roles';

/** Whose transformation: the endpoint's (runs before fan-out) or one target's. */
export interface ScopeRef {
  endpointId: string;
  targetId: string | null;
}

/**
 * The transformation routes of one scope (docs/transformations.md "Versions and the API"): the
 * endpoint's and a target's are the same operations on two paths, named `…Endpoint…` and
 * `…Target…` in the API's document, which also says the role each needs.
 */
export function scopeApi(s: ScopeRef, can: Abilities) {
  const op = s.targetId === null ? 'Endpoint' : 'Target';
  const may = {
    save: can.may(`save${op}Transformation`),
    restore: can.may(`restore${op}Transformation`),
    remove: can.may(`remove${op}Transformation`),
    preview: can.may('previewTransformation'),
  };
  if (s.targetId === null) {
    const path = { endpointId: s.endpointId };
    return {
      may,
      get: () => must(relay.GET('/v1/endpoints/{endpointId}/transformation', { params: { path } })),
      save: (code: string) =>
        must(relay.PUT('/v1/endpoints/{endpointId}/transformation', { params: { path }, body: { code } })),
      remove: () => must(relay.DELETE('/v1/endpoints/{endpointId}/transformation', { params: { path } })),
      version: (n: number) =>
        must(
          relay.GET('/v1/endpoints/{endpointId}/transformation/versions/{version}', {
            params: { path: { ...path, version: String(n) } },
          }),
        ),
      restore: (n: number) =>
        must(
          relay.POST('/v1/endpoints/{endpointId}/transformation/versions/{version}/restore', {
            params: { path: { ...path, version: String(n) } },
          }),
        ),
    };
  }
  const path = { endpointId: s.endpointId, targetId: s.targetId };
  return {
    may,
    get: () => must(relay.GET('/v1/endpoints/{endpointId}/targets/{targetId}/transformation', { params: { path } })),
    save: (code: string) =>
      must(
        relay.PUT('/v1/endpoints/{endpointId}/targets/{targetId}/transformation', { params: { path }, body: { code } }),
      ),
    remove: () =>
      must(relay.DELETE('/v1/endpoints/{endpointId}/targets/{targetId}/transformation', { params: { path } })),
    version: (n: number) =>
      must(
        relay.GET('/v1/endpoints/{endpointId}/targets/{targetId}/transformation/versions/{version}', {
          params: { path: { ...path, version: String(n) } },
        }),
      ),
    restore: (n: number) =>
      must(
        relay.POST('/v1/endpoints/{endpointId}/targets/{targetId}/transformation/versions/{version}/restore', {
          params: { path: { ...path, version: String(n) } },
        }),
      ),
  };
}

export type ScopeApi = ReturnType<typeof scopeApi>;

/** The draft run on the endpoint's newest stored requests, as the scope's code; delivers nothing. */
export const previewDraft = (s: ScopeRef, code: string) =>
  must(
    relay.POST('/v1/endpoints/{endpointId}/transformations/preview', {
      params: { path: { endpointId: s.endpointId } },
      body: s.targetId === null ? { code } : { code, target_id: s.targetId },
    }),
  );
