import { useState } from 'preact/hooks';
import { must, relay } from '../../api';
import { ErrorSummary, Field } from '../../components/ui';
import { useFormErrors } from '../../components/form-errors';
import { errorMap, fieldFor } from '../../lib/fields';
import { inputOf, parseSchedule, pathsOf, startObject } from '../../lib/kind-form';
import type { Value } from '../../lib/kind-form';
import type { Target, TargetCreate, TargetKindList } from '@relay/client';
import { KindFields } from './KindFields';

/**
 * Adds a target, or edits one, with the fields its kind describes (`GET /v1/target-kinds`).
 * The name and the retry schedule are changed in place; a changed configuration is saved as a
 * new target that replaces the old one (the API keeps configurations immutable), and because
 * credentials can never be read back, a replacement needs them typed again.
 */
export function TargetForm(props: { endpointId: string; kinds: TargetKindList; replacing: Target | null; onDone: (t: Target) => void; onCancel: () => void }) {
  const old = props.replacing;
  const [kind, setKind] = useState(old?.kind ?? props.kinds.data[0]?.kind ?? '');
  const described = props.kinds.data.find((k) => k.kind === kind);
  const fields = described?.fields ?? [];
  const [name, setName] = useState(old?.name ?? '');
  const [schedule, setSchedule] = useState((old?.retry_schedule_ms ?? []).join(', ') + (old?.retry_schedule_ms?.length === 0 ? 'none' : ''));
  const [config, setConfig] = useState<Value>(startObject(fields, old?.config));
  // the target's own routing rules (docs/routing.md), drawn from their description like a kind's config
  const ownFields = props.kinds.target_fields.filter((f) => f.name === 'routing');
  const [own, setOwn] = useState<Value>(startObject(ownFields, old ? { routing: old.routing } : undefined));
  const [configTouched, setConfigTouched] = useState(old === null);
  const { errors, message, fail } = useFormErrors();

  const chooseKind = (next: string): void => {
    setKind(next);
    setConfig(startObject(props.kinds.data.find((k) => k.kind === next)?.fields ?? [], undefined));
  };
  const edit = (next: Value): void => (setConfig(next), setConfigTouched(true));

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const retry = parseSchedule(schedule);
    try {
      // the form's rows are drawn from the routing description; the API is the judge of their shape
      const routing = (inputOf(ownFields, own).routing ?? null) as TargetCreate['routing'];
      const target =
        old && !configTouched
          ? await must(relay.PATCH('/v1/endpoints/{endpointId}/targets/{targetId}', { params: { path: { endpointId: props.endpointId, targetId: old.id } }, body: { name, retry_schedule_ms: retry, routing } }))
          : await must(
              relay.POST('/v1/endpoints/{endpointId}/targets', {
                params: { path: { endpointId: props.endpointId } },
                // a kind of the API's own list (GET /v1/target-kinds)
                body: { kind: kind as TargetCreate['kind'], name, enabled: old?.enabled ?? true, config: inputOf(fields, config), retry_schedule_ms: retry, routing },
              }),
            );
      props.onDone(target);
    } catch (err) {
      fail(err);
    }
  };

  const known = new Set(['kind', 'name', 'retry_schedule_ms', ...pathsOf(fields, config, 'config'), ...pathsOf(ownFields, own, '')]);
  const map = errorMap(errors.map((x) => ({ ...x, field: fieldFor(x.field, known) ?? x.field })));
  const unplaced = errors.filter((x) => fieldFor(x.field, known) === null);
  const defaultSchedule = described?.default_retry_schedule_ms.join(', ') ?? '';

  return (
    <form class="card target-form" onSubmit={(e) => void submit(e)} aria-label={old ? `Edit ${old.name}` : 'Add a target'} noValidate>
      <h3>{old ? `Edit ${old.name}` : 'Add a target'}</h3>
      <ErrorSummary message={message} unplaced={unplaced} />
      {old && <p class="hint">Renaming, a new retry schedule or new routing rules keep the target. Changing its configuration saves a new target in its place; write-only values must then be entered again.</p>}
      <div class="grid">
        <Field path="kind" label="Kind" errors={map} hint={described?.help}>
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
        <Field path="name" label="Target name" errors={map}>
          {(a) => <input {...a} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
      </div>
      <div class="grid">
        <KindFields fields={fields} value={config} onChange={edit} path="config" errors={map} editing={old !== null} />
      </div>
      <div class="grid">
        <Field path="retry_schedule_ms" label="Retry schedule (ms between attempts)" errors={map} hint={`Comma-separated delays; empty: the kind’s default (${defaultSchedule}); “none”: no retries.`}>
          {(a) => <input {...a} value={schedule} placeholder={defaultSchedule} onInput={(e) => setSchedule(e.currentTarget.value)} />}
        </Field>
      </div>
      <KindFields fields={ownFields} value={own} onChange={setOwn} path="" errors={map} editing={old !== null} />
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit">{old ? (configTouched ? 'Save as new configuration' : 'Save') : 'Add target'}</button>
      </div>
    </form>
  );
}
