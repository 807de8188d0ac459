// The activity records of one accepted request delivered at its first attempt, as the gateway and
// a deliverer publish them: what the activity benches write through the writer's own code.
'use strict';
const { randomBytes } = require('node:crypto');
const { timedId, ACTIVITY_ATTEMPT_V1, ACTIVITY_REQUEST_V1 } = require('@relay/contracts');

/**
 * @param {string} accountId
 * @param {string} endpointId
 * @param {number} i a sequence number, part of the event id
 * @param {string} receivedAt
 * @returns {[import('@relay/contracts').ActivityRequestV1, import('@relay/contracts').ActivityAttemptV1]}
 */
function eventMessages(accountId, endpointId, i, receivedAt) {
  // ids carry their arrival time, as the gateway's do (the log is partitioned by it)
  const eventId = timedId('evt', Date.parse(receivedAt), `w${i}${randomBytes(4).toString('hex')}`);
  /** @type {import('@relay/contracts').ActivityRequestV1} */
  const request = {
    type: ACTIVITY_REQUEST_V1,
    event_id: eventId,
    account_id: accountId,
    endpoint_id: endpointId,
    received_at: receivedAt,
    method: 'POST',
    source_ip: `10.0.${i % 4}.${i % 250}`,
    outcome: 'ACCEPTED',
    reason: null,
    target_count: 1,
    test: false,
  };
  /** @type {import('@relay/contracts').ActivityAttemptV1} */
  const attempt = {
    type: ACTIVITY_ATTEMPT_V1,
    event_id: eventId,
    delivery_id: `dlv_${eventId}_tg1`,
    account_id: accountId,
    endpoint_id: endpointId,
    target_id: 'tg_bench',
    target_kind: 'webhook',
    attempt: 1,
    attempted_at: receivedAt,
    state: 'delivered',
    status_code: 200,
    duration_ms: 12,
    error: null,
    next_attempt_at: null,
  };
  return [request, attempt];
}

module.exports = { eventMessages };
