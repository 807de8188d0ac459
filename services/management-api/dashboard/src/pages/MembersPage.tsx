import { useEffect, useState } from 'preact/hooks';
import { messageOf, must, relay } from '../api';
import { Confirm, Field, Loading, Notice } from '../components/ui';
import { ErrorScope, ErrorSummary, useFormErrors } from '../components/form-errors';
import { utc } from '../lib/time';
import type { Me } from '../api';
import type { IdentityProvider, Invitation, Member } from '@relay/client';
import type { Abilities, Role } from '../lib/roles';

const ROLES: Role[] = ['owner', 'admin', 'editor', 'viewer'];

/**
 * Members (admin and owner; docs/members.md): the account's identity provider (an owner sets
 * it), invitations by email and the open ones, and the members with their role. Removing a
 * member ends their sessions at once.
 */
export function MembersPage(props: { me: Me; can: Abilities }) {
  const [members, setMembers] = useState<Member[] | null>(null);
  const [invitations, setInvitations] = useState<Invitation[] | null>(null);
  const [provider, setProvider] = useState<IdentityProvider | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const load = async (): Promise<void> => {
    await Promise.all([
      must(relay.GET('/v1/members')).then(
        (r) => setMembers(r.data),
        (err) => setError(messageOf(err)),
      ),
      must(relay.GET('/v1/members/invitations')).then(
        (r) => setInvitations(r.data),
        (err) => setError(messageOf(err)),
      ),
      // 404: no provider yet
      relay.GET('/v1/account/identity-provider').then(
        ({ data }) => setProvider(data ?? null),
        (err) => setError(messageOf(err)),
      ),
    ]);
  };
  useEffect(() => void load(), []);
  // an admin invites and removes members below owner; an owner anyone
  const grantable = props.me.role === 'owner' ? ROLES : ROLES.slice(1);

  /** A removal or revocation: said when done, the lists read again. */
  const change = async (call: () => Promise<unknown>, done: string): Promise<void> => {
    try {
      await call();
      await load(); // the lists as they are now, with the confirmation
      setNotice(done);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const remove = (m: Member): Promise<void> => {
    setRemoving(null);
    return change(
      () => must(relay.DELETE('/v1/members/{memberId}', { params: { path: { memberId: m.id } } })),
      `${m.email} removed: their sessions end now.`,
    );
  };
  const revoke = (i: Invitation): Promise<void> =>
    change(
      () => must(relay.DELETE('/v1/members/invitations/{invitationId}', { params: { path: { invitationId: i.id } } })),
      `The invitation to ${i.email} no longer works.`,
    );

  return (
    <section aria-labelledby="members-title">
      <h1 id="members-title">Members</h1>
      {notice && <Notice kind="ok">{notice}</Notice>}
      {error && <Notice kind="error">{error}</Notice>}
      <ProviderCard
        provider={provider}
        canSet={props.can.may('setIdentityProvider')}
        onSaved={(p) => (setProvider(p), setNotice('Identity provider saved.'))}
      />
      {provider && (
        <Invite
          roles={grantable}
          onSent={(i) => (setNotice(`Invitation sent to ${i.email}.`), setError(null), void load())}
        />
      )}
      {invitations && invitations.length > 0 && (
        <div class="table-wrap">
          <table class="list">
            <caption>Open invitations</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col" class="wide-only">
                  Expires
                </th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invitations.map((i) => (
                <tr key={i.id}>
                  <td>{i.email}</td>
                  <td>{i.role}</td>
                  <td class="wide-only">{utc(i.expires_at)}</td>
                  <td>
                    {grantable.includes(i.role) && (
                      <button type="button" class="secondary" onClick={() => void revoke(i)}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {!members && !error && <Loading what="members" />}
      {members && (
        <div class="table-wrap">
          <table class="list">
            <caption>Members</caption>
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Role</th>
                <th scope="col" class="wide-only">
                  Joined
                </th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.length === 0 && (
                <tr>
                  <td colSpan={4}>No members yet: invite one above.</td>
                </tr>
              )}
              {members.map((m) => (
                <tr key={m.id}>
                  <td>
                    {m.name ? `${m.name} ` : ''}
                    {m.email}
                    {m.id === props.me.member?.id && <span class="badge">you</span>}
                  </td>
                  <td>{m.role}</td>
                  <td class="wide-only">{utc(m.created_at)}</td>
                  <td>
                    {grantable.includes(m.role) && (
                      <button
                        type="button"
                        class="danger"
                        onClick={() => setRemoving(m)}
                        aria-label={`Remove ${m.email}`}
                      >
                        Remove…
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
        open={removing !== null}
        title={`Remove ${removing?.email ?? ''}?`}
        confirmLabel="Remove member"
        danger
        onConfirm={() => removing && void remove(removing)}
        onCancel={() => setRemoving(null)}
      >
        <p>
          Their dashboard sessions end now, and they cannot sign in again unless invited again.
          {removing?.id === props.me.member?.id ? ' This is you: you will be signed out.' : ''}
        </p>
      </Confirm>
    </section>
  );
}

function ProviderCard(props: {
  provider: IdentityProvider | null | undefined;
  canSet: boolean;
  onSaved: (p: IdentityProvider) => void;
}) {
  const [issuer, setIssuer] = useState('');
  const [clientId, setClientId] = useState('');
  const [secret, setSecret] = useState('');
  const form = useFormErrors();
  const p = props.provider;
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    try {
      props.onSaved(
        await must(
          relay.PUT('/v1/account/identity-provider', {
            body: { issuer: issuer.trim(), client_id: clientId.trim(), client_secret: secret },
          }),
        ),
      );
      setSecret('');
      form.clear();
    } catch (err) {
      form.fail(err);
    }
  };
  return (
    <div class="card" aria-labelledby="idp-title">
      <h2 id="idp-title">Identity provider</h2>
      {p === undefined && <Loading what="the identity provider" />}
      {p === null && <p>None yet: members cannot sign in until an owner sets one.</p>}
      {p && (
        <dl>
          <dt>Issuer</dt>
          <dd>
            <code>{p.issuer}</code>
          </dd>
          <dt>Client id</dt>
          <dd>
            <code>{p.client_id}</code>
          </dd>
          <dt>Redirect URI to register</dt>
          <dd>
            <code>{p.redirect_uri}</code>
          </dd>
        </dl>
      )}
      {props.canSet && (
        <form class="inline-form" onSubmit={(e) => void submit(e)}>
          <ErrorScope form={form}>
            <ErrorSummary />
            <Field path="issuer" label="Issuer">
              {(a) => (
                <input
                  {...a}
                  value={issuer}
                  placeholder="https://idp.example.com"
                  onInput={(e) => setIssuer(e.currentTarget.value)}
                />
              )}
            </Field>
            <Field path="client_id" label="Client id">
              {(a) => <input {...a} value={clientId} onInput={(e) => setClientId(e.currentTarget.value)} />}
            </Field>
            <Field path="client_secret" label="Client secret">
              {(a) => (
                <input
                  {...a}
                  type="password"
                  autoComplete="off"
                  value={secret}
                  onInput={(e) => setSecret(e.currentTarget.value)}
                />
              )}
            </Field>
            <button type="submit">{p ? 'Replace provider' : 'Set provider'}</button>
          </ErrorScope>
        </form>
      )}
    </div>
  );
}

function Invite(props: { roles: Role[]; onSent: (i: Invitation) => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const form = useFormErrors();
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    try {
      props.onSent(await must(relay.POST('/v1/members/invitations', { body: { email: email.trim(), role } })));
      setEmail('');
      form.clear();
    } catch (err) {
      form.fail(err);
    }
  };
  return (
    <form class="card inline-form" onSubmit={(e) => void submit(e)} aria-labelledby="invite-title">
      <ErrorScope form={form}>
        <h2 id="invite-title">Invite a member</h2>
        <ErrorSummary />
        <Field path="email" label="Email">
          {(a) => <input {...a} type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />}
        </Field>
        <Field path="role" label="Role">
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
        <button type="submit">Send invitation</button>
      </ErrorScope>
    </form>
  );
}
