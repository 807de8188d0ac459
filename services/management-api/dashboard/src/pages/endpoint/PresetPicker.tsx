import { useState } from 'preact/hooks';
import { Field } from '../../components/ui';
import { presetChoices, presetSummary } from '../../lib/presets';

/**
 * The HMAC preset by provider name. A search box narrows the list (name or label);
 * under it, what the chosen provider sends and where its dashboard shows the secret.
 */
export function PresetPicker(props: {
  path: string;
  value: string;
  disabled: boolean;
  onChange: (preset: string) => void;
}) {
  const [query, setQuery] = useState('');
  const choices = presetChoices(query, props.value);
  const summary = presetSummary(props.value);
  return (
    <>
      <label class="field">
        <span>Find a provider</span>
        <input
          type="search"
          value={query}
          disabled={props.disabled}
          placeholder="GitHub, Stripe, Shopify…"
          onInput={(e) => setQuery(e.currentTarget.value)}
        />
      </label>
      <Field path={props.path} label="Preset">
        {(a) => (
          <select
            {...a}
            value={props.value}
            disabled={props.disabled}
            onChange={(e) => props.onChange(e.currentTarget.value)}
          >
            {choices.map((c) => (
              <option key={c.name} value={c.name}>
                {c.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {summary && (
        <p class="hint" data-preset-summary>
          {summary.sends} Secret: {summary.where}.{' '}
          <a href={summary.docs} target="_blank" rel="noreferrer">
            Provider docs
          </a>
        </p>
      )}
    </>
  );
}
