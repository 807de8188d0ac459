/**
 * The broker did not take responsibility for a message: not connected, channel closed,
 * nack, unroutable, or no confirm in time. What ConfirmPublisher rejects with; callers see it as
 * DeliveryQueueUnavailableError (below) through the delivery and activity publishers' users.
 */
export class BrokerUnavailableError extends Error {
  readonly code = 'delivery_queue_unavailable';
  constructor(readonly reason: 'not_connected' | 'channel_closed' | 'nacked' | 'unroutable' | 'confirm_timeout') {
    super(`broker did not confirm the message: ${reason}`);
    this.name = 'BrokerUnavailableError';
  }
}

/**
 * Delivery processing is unavailable: the broker did not confirm a delivery (or the row that
 * goes with it). The one error every edge maps to its answer — the gateway's and the management
 * API's 503 `delivery_queue_unavailable` with Retry-After (spec "Errors"), a deliverer's requeue.
 * `cause` is the BrokerUnavailableError that says why.
 */
export class DeliveryQueueUnavailableError extends Error {
  readonly code = 'delivery_queue_unavailable';
  constructor(cause: unknown) {
    super('delivery queue unavailable', { cause });
    this.name = 'DeliveryQueueUnavailableError';
  }

  /** A broker failure as this error; anything else (a bug, a contract violation) as it was thrown. */
  static from(err: unknown): unknown {
    return err instanceof BrokerUnavailableError ? new DeliveryQueueUnavailableError(err) : err;
  }
}
