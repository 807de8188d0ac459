import type { DeliveryChannel } from '@relay/contracts';
import type { EndpointRecord } from '@relay/store';

/** What the gateway needs of an endpoint on every request, loaded once and cached. */
export interface EndpointView {
  endpoint: EndpointRecord;
  /** enabled targets with the queue their kind is delivered from */
  targets: { id: string; kind: string; channel: DeliveryChannel }[];
  plan: { payload_limit_bytes: number; monthly_accepted_events: number };
}

export interface EndpointSource {
  /** null when no such endpoint exists */
  get(endpointId: string): Promise<EndpointView | null>;
}
