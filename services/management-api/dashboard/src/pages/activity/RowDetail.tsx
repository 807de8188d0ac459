import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { messageOf, must, relay } from '../../api';
import type { ActivityListed, ActivityRow as Detail } from '@relay/client';
import { Loading, Notice } from '../../components/ui';
import type { DetailRow } from '../../lib/latency';
import { formatMs } from '../../lib/latency';
import type { Abilities } from '../../lib/roles';
import { utc } from '../../lib/time';
import { href } from '../../router';
import { AttemptResponse } from './AttemptResponse';
import { AttemptTransform } from './AttemptTransform';
import { OrderingStuck } from './OrderingStuck';
import { Quarantine } from './Quarantine';
import { RequestDetail } from './RequestDetail';

/**
 * An expanded row: the error reason (spec), then every delivery and its attempts, each with the
 * transformations that ran on it and what the target answered.
 */
export function RowDetail(props: {
  row: ActivityListed;
  can: Abilities;
  known: DetailRow | null;
  onDetail: (d: DetailRow) => void;
}) {
  const [detail, setDetail] = useState<Detail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [resent, setResent] = useState<string | null>(null);
  const load = (): void => {
    must(relay.GET('/v1/activity/{eventId}', { params: { path: { eventId: props.row.id } } })).then(
      (d) => (setDetail(d), props.onDetail(d)),
      (err) => setError(messageOf(err)),
    );
  };
  useEffect(load, [props.row.id, props.row.status]);

  // Resend asks first: which targets (all that can take it, ticked), then a confirm
  const [picking, setPicking] = useState<Array<{
    id: string;
    name: string;
    usable: boolean;
    note: string | null;
  }> | null>(null);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const pick = async (): Promise<void> => {
    try {
      const { data } = await must(
        relay.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId: props.row.endpoint_id } } }),
      );
      const list = data.map((t) => ({
        id: t.id,
        name: t.name,
        usable: t.enabled && t.flagged === null,
        note: !t.enabled ? 'disabled' : t.flagged !== null ? 'flagged' : null,
      }));
      setPicking(list);
      setChosen(new Set(list.filter((t) => t.usable).map((t) => t.id)));
      setResent(null);
    } catch (err) {
      setResent(messageOf(err));
    }
  };
  const resend = async (): Promise<void> => {
    const targetIds = [...chosen];
    setPicking(null);
    try {
      const res = await must(
        relay.POST('/v1/activity/{eventId}/resend', {
          params: { path: { eventId: props.row.id } },
          body: { target_ids: targetIds },
        }),
      );
      setResent(
        `Sent again: ${res.deliveries.length} new deliver${res.deliveries.length === 1 ? 'y' : 'ies'} under the same event, shown below as they report.`,
      );
      // the new deliveries reach the row as the deliverer reports them: look again a few times
      for (const ms of [1500, 4000, 8000]) setTimeout(load, ms);
    } catch (err) {
      // 409: not resendable (a rejection, no stored payload, target flagged or disabled), said why
      setResent(messageOf(err));
    }
  };
  const r = props.row;
  const reason = r.reason ?? r.last_error;
  return (
    <div class="detail">
      {r.aggregate && (
        <p>
          <strong>Aggregated row:</strong> {r.aggregate.count} identical rejections between{' '}
          {utc(r.aggregate.first_seen)} and {utc(r.aggregate.last_seen)}; the first ones are listed as rows of their
          own.
        </p>
      )}
      {r.alert ? (
        // Relay's own message to the target: no sender, no stored request, nothing to resend
        <>
          <p>Sent by Relay: an alert, not a request a sender made.</p>
          <dl class="config">
            <dt>Alert</dt>
            <dd>
              {r.alert.title}
              {r.test ? ' (a test)' : ''}
            </dd>
            <dt>Alert rule</dt>
            <dd>
              <a href={href('alerts')}>{r.alert.rule_name}</a>
            </dd>
            <dt>Event</dt>
            <dd>
              <code>{r.id}</code>
            </dd>
          </dl>
        </>
      ) : (
        <dl class="config">
          <dt>Event</dt>
          <dd>
            <code>{r.id}</code>
          </dd>
          <dt>Error reason</dt>
          <dd class={reason ? 'error-text' : ''}>{reason ?? 'none'}</dd>
          <dt>Source IP</dt>
          <dd>{r.source_ip ?? '— (aggregated)'}</dd>
        </dl>
      )}
      {r.outcome === 'ACCEPTED' && !r.aggregate && !r.alert && <RequestDetail eventId={r.id} />}
      {detail && <Quarantine eventId={r.id} detail={detail} canEdit={props.can.edit} onRerun={load} />}
      {error && <Notice kind="error">{error}</Notice>}
      {!detail && !error && <Loading what="deliveries" />}
      {detail && detail.deliveries.length === 0 && detail.not_routed.length === 0 && r.outcome === 'ACCEPTED' && (
        <p>No deliveries recorded yet.</p>
      )}
      {detail?.deliveries.map((d) => (
        <div class="delivery" key={d.delivery_id}>
          <p>
            Delivery <code>{d.delivery_id}</code> to{' '}
            {d.target_name !== null ? (
              <strong title={d.target_id}>{d.target_name}</strong>
            ) : (
              <>
                a deleted target <code>{d.target_id}</code>
              </>
            )}{' '}
            ({d.target_kind}): <strong class={`delivery--${d.state}`}>{stateLabel(d)}</strong>
          </p>
          <OrderingStuck delivery={d} endpointId={props.row.endpoint_id} />
          <div class="table-wrap">
            <table class="list attempts">
              <thead>
                <tr>
                  <th scope="col">Attempt</th>
                  <th scope="col">At (UTC)</th>
                  <th scope="col">Result</th>
                  <th scope="col">Took</th>
                  <th scope="col">Error / next</th>
                </tr>
              </thead>
              <tbody>
                {d.attempts.map((a) => (
                  <tr key={a.attempt}>
                    <td>{a.attempt}</td>
                    <td>{utc(a.attempted_at).replace(' UTC', '')}</td>
                    <td>
                      {a.state}
                      {a.status_code !== null && ` · HTTP ${a.status_code}`}
                      {a.resends !== undefined &&
                        ` · sent ${a.resends + 1} times (a kept-alive connection was reset before an answer)`}
                    </td>
                    <td>{formatMs(a.duration_ms)}</td>
                    <td>
                      {a.error ?? ''}
                      {a.next_attempt_at && ` · retry at ${utc(a.next_attempt_at)}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {d.attempts.map((a, i) => (
            <Fragment key={a.attempt}>
              {a.transform && (
                // the last attempt's open: what ran on the delivery as it stands
                <AttemptTransform attempt={a} transform={a.transform} open={i === d.attempts.length - 1} />
              )}
              {a.response && (
                <AttemptResponse
                  attempt={a.attempt}
                  status={a.status_code}
                  durationMs={a.duration_ms}
                  response={a.response}
                />
              )}
            </Fragment>
          ))}
        </div>
      ))}
      {detail && waitingCount(detail) > 0 && (
        <p class="delivery">
          <strong class="delivery--queued">{`${waitingCount(detail)} not attempted yet`}</strong> (queued for a first
          attempt; nothing was sent to {waitingCount(detail) === 1 ? 'that target' : 'those targets'} so far)
        </p>
      )}
      {detail?.not_routed.map((t) => (
        <p class="delivery" key={t.target_id}>
          To{' '}
          {t.target_name !== null ? (
            <strong title={t.target_id}>{t.target_name}</strong>
          ) : (
            <>
              a deleted target <code>{t.target_id}</code>
            </>
          )}
          : <strong class="delivery--not_routed">not routed</strong> (the payload did not meet its routing rules;
          nothing was sent)
        </p>
      ))}
      {props.can.edit && r.outcome === 'ACCEPTED' && !r.aggregate && !r.alert && picking === null && (
        <p>
          <button type="button" class="secondary" onClick={() => void pick()}>
            Resend…
          </button>{' '}
          {resent && <span role="status">{resent}</span>}
        </p>
      )}
      {picking !== null && (
        <fieldset class="group" aria-label="Resend to">
          <legend>Resend this event to</legend>
          {picking.map((t) => (
            <label class="check" key={t.id}>
              <input
                type="checkbox"
                disabled={!t.usable}
                checked={chosen.has(t.id)}
                onChange={(e) => {
                  const next = new Set(chosen);
                  if (e.currentTarget.checked) next.add(t.id);
                  else next.delete(t.id);
                  setChosen(next);
                }}
              />{' '}
              {t.name}
              {t.note && ` (${t.note}: cannot be sent to)`}
            </label>
          ))}
          <p class="hint">
            Each target gets a new delivery under the same event id; one that already answered 200 gets it again. An
            event may be resent to at most 100 deliveries in all.
          </p>
          <p>
            <button type="button" disabled={chosen.size === 0} onClick={() => void resend()}>
              {`Resend to ${chosen.size} target${chosen.size === 1 ? '' : 's'}`}
            </button>{' '}
            <button type="button" class="secondary" onClick={() => setPicking(null)}>
              Cancel
            </button>
          </p>
        </fieldset>
      )}
    </div>
  );
}

type DetailDelivery = Detail['deliveries'][number];

/**
 * A delivery's state as a person reads it: one that failed and waits for its next attempt says
 * when that is — unlike one never tried, which has no delivery on the row yet (waitingCount).
 */
function stateLabel(d: DetailDelivery): string {
  const last = d.attempts[d.attempts.length - 1];
  if (d.state === 'retrying' && last?.next_attempt_at) return `retrying (next attempt at ${utc(last.next_attempt_at)})`;
  return d.state;
}

/** Targets the event was sent to whose first delivery has not reported an attempt yet. */
function waitingCount(detail: Detail): number {
  return Math.max(0, detail.target_count - new Set(detail.deliveries.map((d) => d.target_id)).size);
}
