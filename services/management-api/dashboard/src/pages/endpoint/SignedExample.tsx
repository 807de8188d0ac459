import { useState } from 'preact/hooks';
import { CopyButton } from '../../components/ui';
import { canSignExample, signedCurlLine } from '../../lib/signed-example';
import type { SignedEndpoint } from '../../lib/signed-example';

/**
 * For an HMAC-preset endpoint, the curl line signed with a secret typed here. The
 * secret stays in this page: it is not saved, not sent to the API, and forgotten on reload. The
 * signature covers the current time, so a timestamped line works within the preset's window.
 */
export function SignedExample(props: { endpoint: SignedEndpoint }) {
  const [secret, setSecret] = useState('');
  const [line, setLine] = useState<string | null>(null);
  if (!canSignExample(props.endpoint)) return null;
  const sign = async (): Promise<void> => setLine(await signedCurlLine(props.endpoint, secret, new Date()));
  return (
    <div class="signed-example">
      <form
        class="copy-row"
        onSubmit={(e) => {
          e.preventDefault();
          void sign();
        }}
      >
        <label class="field">
          <span>Signing secret for an example (stays in this browser)</span>
          <input type="password" autoComplete="off" value={secret} onInput={(e) => setSecret(e.currentTarget.value)} />
        </label>
        <button type="submit" class="secondary" disabled={secret === ''}>
          Sign an example
        </button>
      </form>
      {line !== null && (
        <div class="copy-row">
          <pre class="curl" aria-label="A signed curl line" data-signed-curl tabIndex={0}>
            {line}
          </pre>
          <CopyButton text={line} label="Copy the signed curl line" />
        </div>
      )}
    </div>
  );
}
