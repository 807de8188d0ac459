import { useEffect, useState } from 'preact/hooks';
import { must, relay } from '../api';
import { Field } from '../components/ui';
import type { Endpoint } from '@relay/client';
import { AuditTable } from './endpoint/AuditHistory';

/** The endpoint filter in the page's address (`#/audit?endpoint_id=ep_…`): shared and gone back to. */
const endpointInHash = (): string => new URLSearchParams(location.hash.split('?')[1] ?? '').get('endpoint_id') ?? '';

/**
 * The account's audit history (`GET /v1/audit`, admin and owner): every
 * change of every endpoint, target, API key and the plan — who (key name and prefix), when,
 * from where, what — filtered to one endpoint (a deleted one's rows too) by its address.
 */
export function AuditPage() {
  const [endpoints, setEndpoints] = useState<Endpoint[]>([]);
  const [endpointId, setEndpointId] = useState(endpointInHash);
  useEffect(() => {
    must(relay.GET('/v1/endpoints')).then(
      (r) => setEndpoints(r.data),
      () => undefined,
    );
    const onHash = (): void => setEndpointId(endpointInHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const choose = (id: string): void => {
    location.hash = id ? `#/audit?endpoint_id=${encodeURIComponent(id)}` : '#/audit';
  };
  const names = new Map(endpoints.map((e) => [e.id, e.name]));
  return (
    <section aria-labelledby="account-audit-title">
      <h1 id="account-audit-title">Audit history</h1>
      <p class="hint">
        Every change in the account — endpoint settings (which fields; secrets only as changed), states, maintenance
        windows, targets, API keys and the plan — with the key that made it and where from. Kept as long as the account.
      </p>
      <form class="card filters audit-filters" aria-label="Audit filters" onSubmit={(e) => e.preventDefault()}>
        <Field path="endpoint_id" label="Endpoint">
          {(a) => (
            <select {...a} value={endpointId} onChange={(e) => choose(e.currentTarget.value)}>
              <option value="">Every endpoint and the account</option>
              {endpoints.map((ep) => (
                <option key={ep.id} value={ep.id}>
                  {ep.name}
                </option>
              ))}
              {endpointId && !names.has(endpointId) && <option value={endpointId}>{endpointId} (deleted)</option>}
            </select>
          )}
        </Field>
      </form>
      <AuditTable endpointId={endpointId || null} account version={0} names={names} />
    </section>
  );
}
