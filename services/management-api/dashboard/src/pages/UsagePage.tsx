import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from '../api';
import { Loading, Notice } from '../components/ui';
import { utc } from '../lib/time';

interface Usage {
  account_id: string;
  plan: { name: string; monthly_accepted_events: number; payload_limit_bytes: number };
  period: { month: string; start: string; end: string };
  accepted_events: number;
  limit: number;
  remaining: number;
}

/** The account's accepted events this month against its plan (`GET /billing/usage`, owner and admin). */
export function UsagePage() {
  const [usage, setUsage] = useState<Usage | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<Usage>('/v1/billing/usage').then(setUsage, (err) => setError(messageOf(err)));
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
          <meter id="usage-meter" min={0} max={usage.limit} low={usage.limit * 0.8} high={usage.limit * 0.95} optimum={0} value={usage.accepted_events} />
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
    </section>
  );
}
