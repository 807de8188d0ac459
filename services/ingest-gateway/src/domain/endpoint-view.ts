import type { DeliveryChannel } from '@relay/contracts';
import type { OrderKeyReader, RoutePredicate, Routing } from '@relay/endpoints';
import type { EndpointRecord } from '@relay/store';
import type { EndpointSettings } from './endpoint-settings';

/** What the gateway needs of an endpoint on every request, loaded once and cached. */
export interface EndpointView {
  /** as stored: secrets inside it are still sealed; use `settings` to evaluate a request */
  endpoint: EndpointRecord;
  /**
   * Secrets opened and rules compiled, once per endpoint revision. `null` when that failed (a
   * secret sealed with an unknown key, a stored rule that does not compile): the failure is
   * logged and the endpoint answers 503 endpoint_unavailable until it is fixed.
   */
  settings: EndpointSettings | null;
  /**
   * enabled targets with the queue their kind is delivered from, their routing rules compiled
   * (null: every event; docs/routing.md) and as stored (for the rule pool), and their ordering key
   */
  targets: {
    id: string;
    kind: string;
    channel: DeliveryChannel;
    route: RoutePredicate | null;
    routing: Routing | null;
    /** reads an event's ordering key (docs/ordering.md); null: the target is not ordered */
    orderKey: OrderKeyReader | null;
    /** a mirror (docs/cli.md "Mirror"): the percent of events it samples by event id; absent: every event */
    mirror?: number;
  }[];
  /** names this revision of the endpoint's and its targets' rules: the rule pool's workers compile them once per key */
  rulesKey: string;
  plan: { payload_limit_bytes: number; monthly_accepted_events: number };
}

/** The endpoint store could not be asked, and no copy of the endpoint could stand in. */
export class EndpointLookupUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('endpoint settings could not be read: the store is unavailable', { cause });
    this.name = 'EndpointLookupUnavailableError';
  }
}

export interface EndpointSource {
  /** null when no such endpoint exists; rejects with EndpointLookupUnavailableError when that cannot be told */
  get(endpointId: string): Promise<EndpointView | null>;
}
