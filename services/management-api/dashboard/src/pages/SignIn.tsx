import { useState } from 'preact/hooks';
import { RelayApiError, session } from '../api';
import { Field } from '../components/ui';
import { errorMap } from '../lib/fields';
import type { Me } from '../api';

/** Why a sign-in with the identity provider came back without a session (`?sign_in_error=`, docs/members.md). */
const SIGN_IN_ERRORS: Record<string, string> = {
  identity_provider_unset: 'This account has no identity provider: sign in with an API key.',
  identity_provider_unreachable: "The account's identity provider could not be reached. Try again shortly.",
  invitation_invalid: 'This invitation link is used, revoked or expired. Ask for a new one.',
  invitation_other_address:
    'This invitation is for another email address than the one you signed in with. Sign in as the invited address.',
  sign_in_expired: 'The sign-in took too long or was started in another browser. Start again.',
  provider_refused: 'The identity provider did not sign you in.',
  identity_not_verified: 'The identity provider’s answer could not be verified.',
  not_a_member: 'You are not a member of this account. Ask an admin for an invitation.',
};

/**
 * Sign-in with the account's identity provider (members) or with an API key. The key goes to
 * `POST /session` once; the browser keeps only an HttpOnly session cookie, never the key
 * (docs/dashboard.md).
 */
export function SignIn(props: { onSignedIn: (me: Me) => void }) {
  const failed = new URLSearchParams(location.search).get('sign_in_error');
  const [account, setAccount] = useState('');
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      props.onSignedIn(await session('POST', { api_key: key.trim() }));
    } catch (err) {
      setError(
        err instanceof RelayApiError && (err.status === 401 || err.status === 400)
          ? 'That API key is not valid.'
          : (err as Error).message,
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="signin">
      {failed && (
        <p class="notice notice--error" role="alert">
          {SIGN_IN_ERRORS[failed] ?? 'The sign-in did not complete.'}
        </p>
      )}
      <form
        aria-labelledby="sso-title"
        onSubmit={(e) => {
          // a navigation, not a form submission: the page's CSP (form-action 'self') would stop the redirect to the provider
          e.preventDefault();
          location.assign(`/session/oidc/start?account=${encodeURIComponent(account.trim())}`);
        }}
      >
        <h1 id="sso-title">Sign in to Relay</h1>
        <p>Members sign in with their organisation’s identity provider.</p>
        <Field path="account" label="Account id">
          {(a) => (
            <input
              {...a}
              spellcheck={false}
              placeholder="acc_…"
              value={account}
              required
              onInput={(e) => setAccount(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={account.trim() === ''}>
          Continue with your identity provider
        </button>
      </form>
      <form onSubmit={(e) => void submit(e)} aria-labelledby="signin-title">
        <h2 id="signin-title">With an API key</h2>
        <p>
          Use an API key of your account: <code>npm run bootstrap</code> prints one, the API keys page makes more.
        </p>
        <Field path="api_key" label="API key" errors={errorMap(error ? [{ field: 'api_key', message: error }] : [])}>
          {(a) => (
            <input
              {...a}
              type="password"
              autoComplete="off"
              spellcheck={false}
              value={key}
              required
              onInput={(e) => setKey(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={busy || key.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
