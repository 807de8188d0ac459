import type { Abilities } from '../lib/roles';
import { ActivityView } from './activity/ActivityView';

/** The cross-endpoint Request activity view (spec "Activity record": the Endpoint column). */
export function ActivityPage(props: { can: Abilities }) {
  return (
    <section aria-labelledby="activity-title">
      <h1 id="activity-title">Request activity</h1>
      <ActivityView endpointId={null} can={props.can} />
    </section>
  );
}
