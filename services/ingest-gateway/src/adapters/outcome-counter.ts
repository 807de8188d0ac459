import { endpointSubject } from '@relay/alerts';
import type { CounterBuffer } from '@relay/alerts';
import type { ActivityRecorder } from '../domain/ports';

/**
 * Counts each answered request by endpoint and outcome for the alert rules' rejection spikes
 * (docs/alerts.md "Counters"): one in-memory increment per row, written to Redis every few
 * seconds by the buffer — no Redis round trip on a request's path. Test requests are not counted.
 */
export function countingOutcomes(recorder: ActivityRecorder, counts: CounterBuffer): ActivityRecorder {
  return {
    record(row) {
      if (!row.test) counts.add(endpointSubject(row.endpoint_id), row.outcome);
      recorder.record(row);
    },
  };
}
