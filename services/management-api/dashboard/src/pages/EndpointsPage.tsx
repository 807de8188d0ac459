import { useEffect, useState } from 'preact/hooks';
import { messageOf, must, relay } from '../api';
import { Field, Loading, Notice } from '../components/ui';
import { ErrorScope, ErrorSummary, useFormErrors } from '../components/form-errors';
import { StateBadge, lastStateChange, stateText } from '../components/state';
import { presetLabel } from '../lib/presets';
import type { Abilities } from '../lib/roles';
import { PAYLOAD_FORMAT_LABELS } from '../lib/settings';
import { go, href } from '../router';
import type { AuditRow, Endpoint } from '@relay/client';

/** The account's endpoints with their state and who set it, and a form to create one. */
export function EndpointsPage(props: { can: Abilities }) {
  const [endpoints, setEndpoints] = useState<Endpoint[] | null>(null);
  const [actors, setActors] = useState<Record<string, AuditRow | null>>({});
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    must(relay.GET('/v1/endpoints')).then(
      async (r) => {
        setEndpoints(r.data);
        // "by whom" for the paused and disabled ones: their latest audit row (one small read each)
        const held = r.data.filter(
          (e) =>
            e.availability.state === 'disabled' ||
            (e.availability.state === 'paused' && e.availability.paused_by !== 'maintenance_window'),
        );
        const rows = await Promise.all(held.map((e) => lastStateChange(e.id).catch(() => null)));
        setActors(Object.fromEntries(held.map((e, i) => [e.id, rows[i] ?? null])));
      },
      (err) => setError(messageOf(err)),
    );
  }, []);

  return (
    <section aria-labelledby="endpoints-title">
      <h1 id="endpoints-title">Endpoints</h1>
      {props.can.may('createEndpoint') && <CreateEndpoint />}
      {error && <Notice kind="error">{error}</Notice>}
      {!endpoints && !error && <Loading what="endpoints" />}
      {endpoints && endpoints.length === 0 && <p>No endpoints yet.</p>}
      {endpoints && endpoints.length > 0 && (
        <div class="table-wrap">
          <table class="list">
            <caption class="sr-only">Endpoints and their state</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">State</th>
                <th scope="col" class="wide-only">
                  Why / by whom
                </th>
                <th scope="col" class="wide-only">
                  Accepts
                </th>
                <th scope="col" class="wide-only">
                  ID
                </th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((e) => (
                <tr key={e.id}>
                  <td>
                    <a href={href('endpoints', e.id)}>{e.name}</a>
                  </td>
                  <td>
                    <StateBadge endpoint={e} last={actors[e.id] ?? null} />
                  </td>
                  <td class="wide-only">{stateText(e, actors[e.id] ?? null).detail}</td>
                  <td class="wide-only nowrap">
                    {e.methods.join(', ')} · {PAYLOAD_FORMAT_LABELS[e.payload_format] ?? e.payload_format} ·{' '}
                    {authText(e)}
                  </td>
                  <td class="wide-only">
                    <code>{e.id}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

const AUTH_WORDS: Record<string, string> = {
  NONE: 'no sender auth',
  BASIC: 'Basic auth',
  BEARER: 'bearer token',
  API_KEY: 'API key header',
};

/** How senders authenticate, in words: an HMAC preset by its provider's name beside its code. */
function authText(e: Endpoint): string {
  const auth = e.inbound_auth;
  if (auth.type === 'HMAC') return `signed: ${presetLabel(auth.preset ?? 'custom')}`;
  return AUTH_WORDS[auth.type] ?? auth.type;
}

function CreateEndpoint() {
  const [name, setName] = useState('');
  const form = useFormErrors();
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    try {
      const created = await must(relay.POST('/v1/endpoints', { body: { name } }));
      go('endpoints', created.id);
    } catch (err) {
      form.fail(err);
    }
  };
  return (
    <form class="inline-form card" onSubmit={(e) => void submit(e)} aria-labelledby="create-title">
      <ErrorScope form={form}>
        <h2 id="create-title">New endpoint</h2>
        <ErrorSummary />
        <Field path="name" label="Name">
          {(a) => (
            <input {...a} value={name} onInput={(e) => setName(e.currentTarget.value)} placeholder="e.g. orders" />
          )}
        </Field>
        <button type="submit">Create endpoint</button>
      </ErrorScope>
    </form>
  );
}
