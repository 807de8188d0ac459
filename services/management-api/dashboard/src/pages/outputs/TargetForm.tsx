import { useState } from 'preact/hooks';
import { must, relay } from '../../api';
import { Field } from '../../components/ui';
import { ErrorScope, ErrorSummary, useFormErrors } from '../../components/form-errors';
import { inputOf, parseSchedule, startObject } from '../../lib/kind-form';
import type { Value } from '../../lib/kind-form';
import type { Target, TargetCreate, TargetKindField, TargetKindList } from '@relay/client';
import { limitsText } from './ConfigSummary';
import { KindFields } from './KindFields';

/**
 * Adds a target, or edits one, with the fields its kind describes (`GET /v1/target-kinds`).
 * The name and the retry schedule are changed in place; a changed configuration is saved as a
 * new target that replaces the old one (the API keeps configurations immutable), and because
 * credentials can never be read back, a replacement needs them typed again.
 */
export function TargetForm(props: {
  endpointId: string;
  kinds: TargetKindList;
  replacing: Target | null;
  onDone: (t: Target) => void;
  onCancel: () => void;
}) {
  const old = props.replacing;
  const [kind, setKind] = useState(old?.kind ?? props.kinds.data[0]?.kind ?? '');
  const described = props.kinds.data.find((k) => k.kind === kind);
  const fields = described?.fields ?? [];
  const [name, setName] = useState(old?.name ?? '');
  const [schedule, setSchedule] = useState(
    (old?.retry_schedule_ms ?? []).join(', ') + (old?.retry_schedule_ms?.length === 0 ? 'none' : ''),
  );
  const [config, setConfig] = useState<Value>(startObject(fields, old?.config));
  // the target's own routing rules (docs/routing.md), drawn from their description like a kind's config
  const ownFields = props.kinds.target_fields.filter((f) => f.name === 'routing');
  const [own, setOwn] = useState<Value>(startObject(ownFields, old ? { routing: old.routing } : undefined));
  // ordering per key (docs/ordering.md), on the kinds whose deliverers keep keys in order
  const orderingFields = props.kinds.target_fields.filter((f) => f.name === 'ordering');
  const [ordering, setOrdering] = useState<Value>(
    startObject(orderingFields, old ? { ordering: old.ordering } : undefined),
  );
  // delivery limits and breaker settings: drawn from their description (`target_fields`), as the config is
  const limitsFields = props.kinds.target_fields.find((f) => f.name === 'limits')?.fields ?? [];
  const breakerFields = props.kinds.target_fields.find((f) => f.name === 'breaker')?.fields ?? [];
  const [limits, setLimits] = useState<Value>(
    startObject(limitsFields, (old?.limits ?? undefined) as Value | undefined),
  );
  const [breaker, setBreaker] = useState<Value>(
    startObject(breakerFields, (old?.breaker ?? undefined) as Value | undefined),
  );
  const [configTouched, setConfigTouched] = useState(old === null);
  const form = useFormErrors();

  const chooseKind = (next: string): void => {
    setKind(next);
    setConfig(startObject(props.kinds.data.find((k) => k.kind === next)?.fields ?? [], undefined));
  };
  const edit = (next: Value): void => (setConfig(next), setConfigTouched(true));

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const retry = parseSchedule(schedule);
    // what the form holds is what the description allows; the API's answer is the final word on each value
    const settings = {
      retry_schedule_ms: retry,
      ordering: (described?.ordering
        ? (inputOf(orderingFields, ordering).ordering ?? null)
        : null) as TargetCreate['ordering'],
      limits: limitsInput(limitsFields, limits) as TargetCreate['limits'],
      breaker: breakerInput(breakerFields, breaker) as TargetCreate['breaker'],
    };
    try {
      // the form's rows are drawn from the routing description; the API is the judge of their shape
      const routing = (inputOf(ownFields, own).routing ?? null) as TargetCreate['routing'];
      const target =
        old && !configTouched
          ? await must(
              relay.PATCH('/v1/endpoints/{endpointId}/targets/{targetId}', {
                params: { path: { endpointId: props.endpointId, targetId: old.id } },
                body: { name, routing, ...settings },
              }),
            )
          : await must(
              relay.POST('/v1/endpoints/{endpointId}/targets', {
                params: { path: { endpointId: props.endpointId } },
                // a kind of the API's own list (GET /v1/target-kinds)
                body: {
                  kind: kind as TargetCreate['kind'],
                  name,
                  enabled: old?.enabled ?? true,
                  config: inputOf(fields, config),
                  routing,
                  ...settings,
                },
              }),
            );
      props.onDone(target);
    } catch (err) {
      form.fail(err);
    }
  };

  const kindLimits = described?.default_limits ? limitsText(described.default_limits) : 'none';
  const defaultSchedule = described?.default_retry_schedule_ms.join(', ') ?? '';

  return (
    <ErrorScope form={form}>
      <form
        class="card target-form"
        onSubmit={(e) => void submit(e)}
        aria-label={old ? `Edit ${old.name}` : 'Add a target'}
        noValidate
      >
        <h3>{old ? `Edit ${old.name}` : 'Add a target'}</h3>
        <ErrorSummary />
        {old && (
          <p class="hint">
            Renaming, a new retry schedule, new routing rules, ordering, limits or breaker settings keep the target.
            Changing its configuration saves a new target in its place; write-only values must then be entered again.
          </p>
        )}
        <div class="grid">
          <Field path="kind" label="Kind" hint={described?.help}>
            {(a) => (
              <select {...a} value={kind} disabled={old !== null} onChange={(e) => chooseKind(e.currentTarget.value)}>
                {props.kinds.data.map((k) => (
                  <option key={k.kind} value={k.kind}>
                    {k.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field path="name" label="Target name">
            {(a) => <input {...a} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
        </div>
        <div class="grid">
          <KindFields fields={fields} value={config} onChange={edit} path="config" editing={old !== null} />
        </div>
        <div class="grid">
          <Field
            path="retry_schedule_ms"
            label="Retry schedule (ms between attempts)"
            hint={`Comma-separated delays; empty: the kind’s default (${defaultSchedule}); “none”: no retries.`}
          >
            {(a) => (
              <input
                {...a}
                value={schedule}
                placeholder={defaultSchedule}
                onInput={(e) => setSchedule(e.currentTarget.value)}
              />
            )}
          </Field>
        </div>
        <KindFields fields={ownFields} value={own} onChange={setOwn} path="" editing={old !== null} />
        {described?.ordering && (
          <KindFields fields={orderingFields} value={ordering} onChange={setOrdering} path="" editing={old !== null} />
        )}
        <fieldset class="grid">
          <legend>Delivery limits</legend>
          <p class="hint">Leave Rate and At most in flight empty for the kind’s default ({kindLimits}).</p>
          <KindFields fields={limitsFields} value={limits} onChange={setLimits} path="limits" editing={false} />
        </fieldset>
        <fieldset class="grid">
          <legend>Circuit breaker</legend>
          <KindFields fields={breakerFields} value={breaker} onChange={setBreaker} path="breaker" editing={false} />
        </fieldset>
        <div class="actions">
          <button type="button" class="secondary" onClick={props.onCancel}>
            Cancel
          </button>
          <button type="submit">{old ? (configTouched ? 'Save as new configuration' : 'Save') : 'Add target'}</button>
        </div>
      </form>
    </ErrorScope>
  );
}

/** What a save sends for the limits: null (the kind's default) when neither limit is set. */
function limitsInput(fields: TargetKindField[], value: Value): Value | null {
  const v = inputOf(fields, value);
  return (v.rate ?? null) === null && (v.max_in_flight ?? null) === null ? null : v;
}

/** What a save sends for the breaker: null (the defaults) when every setting is its default. */
function breakerInput(fields: TargetKindField[], value: Value): Value | null {
  const v = inputOf(fields, value);
  return fields.every((f) => v[f.name] === undefined || v[f.name] === f.default) ? null : v;
}
