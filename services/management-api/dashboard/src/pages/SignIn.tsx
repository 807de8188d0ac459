import { useState } from 'preact/hooks';
import { RelayApiError, session } from '../api';
import { Field } from '../components/ui';
import { errorMap } from '../lib/fields';
import type { Me } from '../api';

/**
 * Sign-in with an API key. The key goes to `POST /session` once; the browser keeps only an
 * HttpOnly session cookie, never the key (docs/dashboard.md).
 */
export function SignIn(props: { onSignedIn: (me: Me) => void }) {
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
      <form onSubmit={(e) => void submit(e)} aria-labelledby="signin-title">
        <h1 id="signin-title">Sign in to Relay</h1>
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
