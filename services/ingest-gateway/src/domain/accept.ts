import { ACTIVITY_REQUEST_V1, DELIVERY_V1, deliveryIdFor, MAX_SOURCE_IP_LENGTH } from '@relay/contracts';
import type {
  ActivityRequestV1,
  DeliveryMessageV1,
  DeliveryPayload,
  ForwardableRequest,
  Outcome,
} from '@relay/contracts';
import { inMirrorSample } from '@relay/targets';
import type { EndpointView } from './endpoint-view';

/** The facts about one request every activity row and delivery shares. */
export interface RequestFacts {
  eventId: string;
  receivedAt: Date;
  method: string;
  sourceIp: string;
  /** a test request the owner ran from the management API: its row is in the Test group */
  test?: boolean;
  /** the quarantined request this one re-runs (docs/ingest.md "Quarantine"): its row links to it */
  rerunOf?: string;
}

type ViewTarget = EndpointView['targets'][number];

/**
 * The enabled targets this event goes to, and those whose routing rules it does not meet
 * (docs/routing.md). Decided once, here, on the payload step 4 parsed, unless the rule pool
 * already decided it (`decided`, in target order): a target not routed costs no broker message.
 * A mirror whose sample leaves the event out is neither (docs/cli.md "Mirror"): it is not one of
 * the event's targets, and the row does not name it. In-process only: no store or Redis read per
 * event.
 */
export function routeEvent(
  view: EndpointView,
  eventId: string,
  data: unknown,
  decided: readonly boolean[] | null = null,
): { routed: ViewTarget[]; notRouted: string[] } {
  const routed: ViewTarget[] = [];
  const notRouted: string[] = [];
  view.targets.forEach((t, i) => {
    if (t.mirror !== undefined && !inMirrorSample(eventId, t.mirror)) return;
    if (decided ? decided[i] === true : t.route === null || t.route(data)) routed.push(t);
    else notRouted.push(t.id);
  });
  return { routed, notRouted };
}

/** What an ordering key is read from: the sender's request headers and the parsed payload. */
export interface KeySource {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  data: unknown;
}

/**
 * One delivery message per routed target; attempt 1. An ordered target's delivery carries the
 * event's key (docs/ordering.md); an event without one goes unordered.
 */
export function deliveriesFor(
  view: EndpointView,
  targets: readonly ViewTarget[],
  facts: RequestFacts,
  request: ForwardableRequest,
  payload: DeliveryPayload,
  keySource: KeySource = { headers: {}, data: undefined },
): DeliveryMessageV1[] {
  return targets.map((t) =>
    withKey(t, keySource, {
      type: DELIVERY_V1,
      event_id: facts.eventId,
      delivery_id: deliveryIdFor(facts.eventId, t.id),
      attempt: 1,
      account_id: view.endpoint.account_id,
      endpoint_id: view.endpoint.id,
      target_id: t.id,
      target_kind: t.kind,
      received_at: facts.receivedAt.toISOString(),
      request,
      payload,
    }),
  );
}

function withKey(t: ViewTarget, source: KeySource, message: DeliveryMessageV1): DeliveryMessageV1 {
  const key = t.orderKey ? t.orderKey(source.headers, source.data) : null;
  return key === null ? message : { ...message, order_key: key };
}

export function activityRow(
  view: EndpointView,
  facts: RequestFacts,
  outcome: Outcome,
  reason: string | null,
  targetCount = 0,
  notRouted: readonly string[] = [],
): ActivityRequestV1 {
  return {
    type: ACTIVITY_REQUEST_V1,
    event_id: facts.eventId,
    account_id: view.endpoint.account_id,
    endpoint_id: view.endpoint.id,
    received_at: facts.receivedAt.toISOString(),
    method: facts.method,
    // a refused X-Forwarded-For entry may be longer than an address (steps.ts checkSourceAddress)
    source_ip: facts.sourceIp.slice(0, MAX_SOURCE_IP_LENGTH),
    outcome,
    reason: reason === null ? null : reason.slice(0, 500),
    target_count: targetCount,
    test: facts.test === true,
    // only where routing held a target back: every other row stays as it was
    ...(notRouted.length > 0 ? { not_routed: [...notRouted] } : {}),
    ...(facts.rerunOf ? { rerun_of: facts.rerunOf } : {}),
  };
}
