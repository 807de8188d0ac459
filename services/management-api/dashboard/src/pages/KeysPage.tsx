import { useEffect, useState } from 'preact/hooks';
import { messageOf, must, relay } from '../api';
import { Confirm, CopyButton, Field, Loading, Notice } from '../components/ui';
import { ErrorScope, ErrorSummary, useFormErrors } from '../components/form-errors';
import { utc } from '../lib/time';
import type { Me } from '../api';
import type { ApiKey, ApiKeyCreated } from '@relay/client';
import type { Role } from '../lib/roles';

const ROLES: Role[] = ['owner', 'admin', 'editor', 'viewer'];
const ROLE_HINTS: Record<string, string> = {
  owner: 'everything, the plan included',
  admin: 'also keys below owner and usage',
  editor: 'changes endpoints and targets',
  viewer: 'reads endpoints, targets and activity; never a secret',
};

/**
 * API keys (owner and admin): list with prefix, role, created and last used; create (the
 * secret is shown once, here, and never again); revoke with confirmation.
 */
export function KeysPage(props: { me: Me }) {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const load = (): Promise<void> =>
    must(relay.GET('/v1/api-keys')).then(
      (r) => setKeys(r.data),
      (err) => setError(messageOf(err)),
    );
  useEffect(() => void load(), []);
  // an admin makes keys below owner; an owner any
  const grantable = props.me.role === 'owner' ? ROLES : ROLES.slice(1);

  const revoke = async (k: ApiKey): Promise<void> => {
    setRevoking(null);
    try {
      await must(relay.DELETE('/v1/api-keys/{keyId}', { params: { path: { keyId: k.id } } }));
      await load(); // the list without the key, with the confirmation
      setNotice(`Key ${k.prefix}… revoked: it is refused from now on.`);
    } catch (err) {
      setError(messageOf(err));
    }
  };

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      {created && (
        <div class="notice notice--ok" role="status">
          <p>
            <strong>
              New {created.role} key{created.name ? ` “${created.name}”` : ''}.
            </strong>{' '}
            Copy it now: it is shown this once and never again.
          </p>
          <div class="copy-row">
            <input
              aria-label="The new API key"
              readOnly
              value={created.secret}
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyButton text={created.secret} label="Copy the new API key" />
          </div>
        </div>
      )}
      {notice && <Notice kind="ok">{notice}</Notice>}
      {error && <Notice kind="error">{error}</Notice>}
      <CreateKey roles={grantable} onCreated={(k) => (setCreated(k), setNotice(null), void load())} />
      {!keys && !error && <Loading what="keys" />}
      {keys && (
        <div class="table-wrap">
          <table class="list">
            <caption class="sr-only">API keys of the account</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Role</th>
                <th scope="col" class="wide-only">
                  Name
                </th>
                <th scope="col" class="wide-only">
                  Created
                </th>
                <th scope="col" class="wide-only">
                  Last used
                </th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id}>
                  <td>
                    <code>{k.prefix}…</code>
                    {k.prefix === props.me.key_prefix && <span class="badge">this session</span>}
                  </td>
                  <td>{k.role}</td>
                  <td class="wide-only">{k.name ?? '—'}</td>
                  <td class="wide-only">
                    {utc(k.created_at)}
                    {k.created_by ? ` by ${k.created_by}` : ''}
                  </td>
                  <td class="wide-only">{k.last_used_at ? utc(k.last_used_at) : 'never'}</td>
                  <td>
                    {grantable.includes(k.role) && (
                      <button
                        type="button"
                        class="danger"
                        onClick={() => setRevoking(k)}
                        aria-label={`Revoke key ${k.prefix}`}
                      >
                        Revoke…
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Confirm
        open={revoking !== null}
        title={`Revoke ${revoking?.prefix ?? ''}…?`}
        confirmLabel="Revoke key"
        danger
        onConfirm={() => revoking && void revoke(revoking)}
        onCancel={() => setRevoking(null)}
      >
        <p>
          Every request made with this key is refused from now on, and dashboard sessions signed in with it end.
          {revoking?.prefix === props.me.key_prefix
            ? ' This is the key of your own session: you will be signed out.'
            : ''}
        </p>
      </Confirm>
    </section>
  );
}

function CreateKey(props: { roles: Role[]; onCreated: (k: ApiKeyCreated) => void }) {
  const [role, setRole] = useState<Role>(props.roles.includes('editor') ? 'editor' : props.roles[0]!);
  const [name, setName] = useState('');
  const form = useFormErrors();
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    try {
      props.onCreated(
        await must(relay.POST('/v1/api-keys', { body: name.trim() ? { role, name: name.trim() } : { role } })),
      );
      setName('');
      form.clear();
    } catch (err) {
      form.fail(err);
    }
  };
  return (
    <form class="card inline-form" onSubmit={(e) => void submit(e)} aria-labelledby="newkey-title">
      <ErrorScope form={form}>
        <h2 id="newkey-title">New API key</h2>
        <ErrorSummary />
        <Field path="role" label="Role" hint={ROLE_HINTS[role]}>
          {(a) => (
            <select {...a} value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
              {props.roles.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field path="name" label="Name (optional)">
          {(a) => (
            <input {...a} value={name} placeholder="e.g. CI deploys" onInput={(e) => setName(e.currentTarget.value)} />
          )}
        </Field>
        <button type="submit">Create key</button>
      </ErrorScope>
    </form>
  );
}
