import { useState } from 'preact/hooks';
import { messageOf, must, relay } from '../../api';
import type { ActivityRow as Detail } from '@relay/client';
import { RequestDetail } from './RequestDetail';

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/**
 * An opened row's quarantine (docs/ingest.md "Quarantine"): a re-run's link to the request it
 * re-ran; a kept request, shown, with "Re-run under the current rules" for editors
 * (`POST /v1/activity/:eventId/rerun`); or why a refusal kept nothing.
 */
export function Quarantine(props: { eventId: string; detail: Detail; canEdit: boolean; onRerun: () => void }) {
  const { detail } = props;
  const [said, setSaid] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const rerun = async (): Promise<void> => {
    setRunning(true);
    setSaid(null);
    try {
      const res = await must(
        relay.POST('/v1/activity/{eventId}/rerun', { params: { path: { eventId: props.eventId } } }),
      );
      setSaid(
        res.replayed
          ? `Already re-run and accepted as ${res.event_id}: nothing sent again.`
          : `Re-run accepted as ${res.event_id}, sent to ${plural(res.target_count, 'target', 'targets')}.`,
      );
      props.onRerun();
    } catch (err) {
      // 422: refused again under the current rules, with what the sender would have been told
      setSaid(messageOf(err));
    } finally {
      setRunning(false);
    }
  };
  return (
    <>
      {detail.rerun_of && (
        <p class="quarantine">
          A re-run of the quarantined request <code>{detail.rerun_of}</code>.
        </p>
      )}
      {detail.quarantine === 'bound_reached' && (
        <p class="quarantine">
          Not kept: the account’s quarantine bound for that hour was used up, so this request cannot be re-run.
        </p>
      )}
      {detail.quarantine === 'kept' && (
        <>
          <p class="quarantine">
            <strong>Quarantined:</strong> refused after the sender authenticated. The request is kept and can be run
            again under the endpoint’s current rules.
          </p>
          <RequestDetail eventId={props.eventId} />
          {props.canEdit && (
            <p>
              <button type="button" class="secondary" disabled={running} onClick={() => void rerun()}>
                Re-run under the current rules
              </button>{' '}
              {said && <span role="status">{said}</span>}
            </p>
          )}
        </>
      )}
    </>
  );
}
