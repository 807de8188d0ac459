import createClient from 'openapi-fetch';
import type { Client, Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './schema';

/**
 * A typed client for the management API (docs/client.md). The paths, bodies and answers are
 * types generated from the OpenAPI document (`src/schema.ts`, by openapi-typescript); the calls
 * are openapi-fetch's: `client.GET('/v1/endpoints/{endpointId}', { params: { path: { endpointId } } })`
 * answers `{ data, error, response }`, each typed by the document. `must()` turns that into the
 * data or a thrown `RelayApiError`.
 */
export type { components, operations, paths };
export type { Middleware };

/** Every schema of the document by name: `Schemas['Endpoint']`. */
export type Schemas = components['schemas'];

// The resources by their names in the document, for code that holds them.
export type FieldError = Schemas['FieldError'];
export type Endpoint = Schemas['Endpoint'];
export type EndpointCreate = Schemas['EndpointCreate'];
export type EndpointPatch = Schemas['EndpointPatch'];
export type InboundAuthInput = Schemas['InboundAuthInput'];
export type InboundAuthView = Schemas['InboundAuthView'];
export type AuditRow = Schemas['AuditRow'];
export type Target = Schemas['Target'];
export type TargetCreate = Schemas['TargetCreate'];
export type TargetPatch = Schemas['TargetPatch'];
export type TargetKind = Schemas['TargetKind'];
export type TargetKindField = Schemas['TargetKindField'];
export type TargetKindList = Schemas['TargetKindList'];
export type ActivityListed = Schemas['ActivityListed'];
export type ActivityPage = Schemas['ActivityPage'];
export type ActivityRow = Schemas['ActivityRow'];
export type Transformation = Schemas['Transformation'];
export type TransformationVersion = Schemas['TransformationVersion'];
export type ActivityRequest = Schemas['ActivityRequest'];
export type TestRequest = Schemas['TestRequest'];
export type TestRequestAccepted = Schemas['TestRequestAccepted'];
export type ResendAccepted = Schemas['ResendAccepted'];
export type BulkRetry = Schemas['BulkRetry'];
export type BulkRetryCreate = Schemas['BulkRetryCreate'];
export type BulkRetryPage = Schemas['BulkRetryPage'];
export type BulkRetryPreview = Schemas['BulkRetryPreview'];
export type BulkRerunCreate = Schemas['BulkRerunCreate'];
export type BulkRerunPreview = Schemas['BulkRerunPreview'];
export type AccountPlan = Schemas['AccountPlan'];
export type PlanPatch = Schemas['PlanPatch'];
export type Usage = Schemas['Usage'];
export type DailyUsage = Schemas['DailyUsage'];
export type ApiKey = Schemas['ApiKey'];
export type ApiKeyCreate = Schemas['ApiKeyCreate'];
export type ApiKeyCreated = Schemas['ApiKeyCreated'];
export type Member = Schemas['Member'];
export type Invitation = Schemas['Invitation'];
export type IdentityProvider = Schemas['IdentityProvider'];
export type AlertRule = Schemas['AlertRule'];
export type AlertRuleInput = Schemas['AlertRuleInput'];
export type Alert = Schemas['Alert'];

export type RelayClient = Client<paths, 'application/json'>;

export interface RelayClientOptions {
  /** the management API's origin, `http://127.0.0.1:8081`; `''` for the page's own origin (the dashboard) */
  baseUrl: string;
  /** an API key (`rk_…`), sent as `Authorization: Bearer`; a dashboard session sends its cookie instead */
  apiKey?: string;
  /** sent with every request */
  headers?: Record<string, string>;
  /** `same-origin` for the dashboard's session cookie */
  credentials?: RequestInit['credentials'];
  /** another fetch (tests' recorders, a proxy); the global one by default */
  fetch?: typeof globalThis.fetch;
}

export function createRelayClient(options: RelayClientOptions): RelayClient {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
  return createClient<paths, 'application/json'>({
    baseUrl: options.baseUrl,
    headers,
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
}

/**
 * An answer that was not a success: its status, the documented `code` and message, and the
 * field errors of a 400 (docs/management-api.md "Errors"). Status 0: the API was not reached.
 */
export class RelayApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
    this.name = 'RelayApiError';
  }
}

/** What every openapi-fetch call answers, narrowed to what `must()` reads. */
interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The data of a 2xx answer (`undefined` for 204), or a `RelayApiError` built from the error
 * body. A request that never got an answer (refused, reset) is status 0, code `network`.
 */
export async function must<T>(call: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await call;
  } catch (err) {
    throw new RelayApiError(
      0,
      'network',
      `The management API could not be reached: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (answer.response.ok) return answer.data as T;
  throw errorOf(answer.response, answer.error);
}

/** The `RelayApiError` of a failed answer and its parsed body (any shape, or none). */
export function errorOf(response: Response, body: unknown): RelayApiError {
  const e = (typeof body === 'object' && body !== null ? body : {}) as {
    code?: unknown;
    message?: unknown;
    errors?: unknown;
  };
  return new RelayApiError(
    response.status,
    typeof e.code === 'string' ? e.code : `http_${response.status}`,
    typeof e.message === 'string' ? e.message : response.statusText || `HTTP ${response.status}`,
    Array.isArray(e.errors) ? (e.errors as FieldError[]) : [],
  );
}
