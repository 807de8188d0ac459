import { useEffect, useState } from 'preact/hooks';
import { messageOf, must, relay } from '../api';
import type { DailyUsage, Usage } from '@relay/client';
import { href } from '../router';
import { Loading, Notice } from '../components/ui';
import { utc } from '../lib/time';

/** The account's accepted events this month against its plan (`GET /billing/usage`, owner and admin). */
export function UsagePage() {
  const [usage, setUsage] = useState<Usage | null>(null);
  const [daily, setDaily] = useState<DailyUsage | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    must(relay.GET('/v1/billing/usage')).then(setUsage, (err) => setError(messageOf(err)));
    must(relay.GET('/v1/billing/usage/daily')).then(setDaily, (err) => setError(messageOf(err)));
  }, []);
  const n = (v: number): string => v.toLocaleString('en-US');
  return (
    <section aria-labelledby="usage-title">
      <h1 id="usage-title">Usage</h1>
      {error && <Notice kind="error">{error}</Notice>}
      {!usage && !error && <Loading what="usage" />}
      {usage && (
        <div class="card">
          <h2>
            {usage.period.month} · plan <span class="badge">{usage.plan.name}</span>
          </h2>
          <label for="usage-meter">
            {n(usage.accepted_events)} of {n(usage.limit)} accepted events ({n(usage.remaining)} left)
          </label>
          <meter
            id="usage-meter"
            min={0}
            max={usage.limit}
            low={usage.limit * 0.8}
            high={usage.limit * 0.95}
            optimum={0}
            value={usage.accepted_events}
          />
          <dl class="config">
            <dt>Period</dt>
            <dd>
              {utc(usage.period.start)} to {utc(usage.period.end)} (the count starts again then)
            </dd>
            <dt>Payload limit</dt>
            <dd>{n(usage.plan.payload_limit_bytes)} bytes</dd>
            <dt>Account</dt>
            <dd>
              <code>{usage.account_id}</code>
            </dd>
          </dl>
        </div>
      )}
      {usage && daily && <UsageOverTime daily={daily} />}
    </section>
  );
}

/**
 * Accepted events per day as bars (the plan's even daily share marked), then per endpoint with
 * its own row of days. Everything is the gateway's counters: nothing is read from the log.
 */
/** A share of the plan that never reads 0.0 % for events that were accepted: "<0.1%" then. */
export function shareText(events: number, limit: number): string {
  const pct = (events / limit) * 100;
  return events > 0 && pct < 0.05 ? '<0.1%' : `${pct.toFixed(1)}%`;
}

function UsageOverTime(props: { daily: DailyUsage }) {
  const { days, endpoints, unattributed, limit } = props.daily;
  const n = (v: number): string => v.toLocaleString('en-US');
  const pace = limit / 30;
  const top = Math.max(1, pace, ...days.map((d) => d.accepted_events));
  let running = 0;
  return (
    <div class="card usage-over-time">
      <h2>Per day</h2>
      <p class="hint">
        Accepted events per UTC day this month. The line marks an even share of the plan ({n(Math.round(pace))} a day).
      </p>
      <div
        class="usage-bars"
        role="img"
        aria-label={`Accepted events per day: ${days.map((d) => `${d.date.slice(8)}: ${d.accepted_events}`).join(', ')}`}
      >
        <span class="usage-pace" style={{ bottom: `${(pace / top) * 100}%` }} />
        {days.map((d) => (
          <span
            key={d.date}
            class="usage-bar"
            title={`${d.date}: ${n(d.accepted_events)}`}
            // a day with any event stays visible beside a large plan: 3 px at the least
            style={{ height: d.accepted_events > 0 ? `max(3px, ${(d.accepted_events / top) * 100}%)` : '0' }}
          />
        ))}
      </div>
      <div class="table-wrap">
        <table class="list usage-days">
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Accepted</th>
              <th scope="col">Month so far</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => {
              running += d.accepted_events;
              return (
                <tr key={d.date}>
                  <td>{d.date}</td>
                  <td>{n(d.accepted_events)}</td>
                  <td>
                    {n(running)} of {n(limit)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <h2>Per endpoint</h2>
      {endpoints.length === 0 && <p>No accepted events yet this month.</p>}
      {endpoints.length > 0 && (
        <div class="table-wrap">
          <table class="list usage-endpoints">
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Accepted</th>
                <th scope="col">Share of plan</th>
                <th scope="col" class="wide-only">
                  Today
                </th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((e) => (
                <tr key={e.endpoint_id}>
                  <td>
                    {e.name ? (
                      <a href={href('endpoints', e.endpoint_id)}>{e.name}</a>
                    ) : (
                      <span>
                        deleted endpoint <code>{e.endpoint_id}</code>
                      </span>
                    )}
                  </td>
                  <td>{n(e.accepted_events)}</td>
                  <td>{limit > 0 ? shareText(e.accepted_events, limit) : '—'}</td>
                  <td class="wide-only">{n(e.days[e.days.length - 1] ?? 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {unattributed > 0 && (
        <p class="hint">
          {n(unattributed)} accepted events were counted while the counters were unreachable and have no day or
          endpoint.
        </p>
      )}
    </div>
  );
}
