import type { ActivityRow } from '@relay/client';
import { utc } from '../../lib/time';
import { href } from '../../router';

type Delivery = ActivityRow['deliveries'][number];

/**
 * A delivery at the head of a stuck ordering key (docs/ordering.md "Held keys"): its attempts
 * carry the key once the deliverer found it stuck. While it still waits, the key's later events
 * wait behind it; the target's held keys on the endpoint's Outputs list them.
 */
export function OrderingStuck(props: { delivery: Delivery; endpointId: string }) {
  const marked = props.delivery.attempts.filter((a) => a.ordering !== undefined).at(-1)?.ordering;
  if (!marked) return null;
  const waiting = props.delivery.state === 'retrying';
  return (
    <p class="ordering-stuck" role="note">
      <span class="badge badge--warn">{waiting ? 'ordering key stuck' : 'ordering key was stuck'}</span> Key{' '}
      <code class="break">{marked.key}</code> stuck since {utc(marked.stuck_since)}:{' '}
      {waiting
        ? 'this event is at its head; the later events of that key wait behind it'
        : 'this event was at its head; the later events of that key waited behind it'}{' '}
      (<a href={href('endpoints', props.endpointId, 'outputs')}>held keys</a>).
    </p>
  );
}
