/**
 * The broker did not take responsibility for a message: not connected, channel closed,
 * nack, unroutable, or no confirm in time. The gateway maps it to 503
 * delivery_queue_unavailable; it never answers 2xx for a message in this state.
 */
export class BrokerUnavailableError extends Error {
  readonly code = 'delivery_queue_unavailable';
  constructor(readonly reason: 'not_connected' | 'channel_closed' | 'nacked' | 'unroutable' | 'confirm_timeout') {
    super(`broker did not confirm the message: ${reason}`);
    this.name = 'BrokerUnavailableError';
  }
}
