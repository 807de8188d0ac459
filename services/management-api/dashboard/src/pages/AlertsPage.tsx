import { useEffect, useState } from 'preact/hooks';
import { messageOf, must, relay } from '../api';
import type { Alert, AlertRule, AlertRuleInput } from '@relay/client';
import { Confirm, Field, Loading, Notice } from '../components/ui';
import { ErrorScope, ErrorSummary, GroupError, useFormErrors } from '../components/form-errors';
import { conditionKindsOf, conditionOf, draftOf } from '../lib/alert-conditions';
import type { ConditionDraft, ConditionKindView } from '../lib/alert-conditions';
import type { Abilities } from '../lib/roles';
import { utc } from '../lib/time';

interface Choice {
  id: string;
  name: string;
}

/** Every target of the account, named with its endpoint: where alerts can go. */
async function loadChoices(): Promise<{ endpoints: Choice[]; targets: Choice[] }> {
  const endpoints = (await must(relay.GET('/v1/endpoints'))).data.map((e) => ({ id: e.id, name: e.name }));
  const lists = await Promise.all(
    endpoints.map((e) =>
      must(relay.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId: e.id } } })).then((r) =>
        r.data.map((t) => ({ id: t.id, name: `${t.name} (${e.name})` })),
      ),
    ),
  );
  return { endpoints, targets: lists.flat() };
}

/**
 * Alert rules (docs/alerts.md): what the account is told and through which of its targets; a
 * test alert from each rule; the last alerts sent, each linking to the view that explains it.
 */
export function AlertsPage(props: { can: Abilities }) {
  const [rules, setRules] = useState<AlertRule[] | null>(null);
  const [history, setHistory] = useState<Alert[]>([]);
  const [kinds, setKinds] = useState<ConditionKindView[]>([]);
  const [choices, setChoices] = useState<{ endpoints: Choice[]; targets: Choice[] }>({ endpoints: [], targets: [] });
  const [editing, setEditing] = useState<AlertRule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AlertRule | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = async (): Promise<void> => {
    await Promise.all([
      must(relay.GET('/v1/alert-rules')).then(
        (r) => setRules(r.data),
        (err) => setError(messageOf(err)),
      ),
      must(relay.GET('/v1/alerts')).then(
        (r) => setHistory(r.data),
        (err) => setError(messageOf(err)),
      ),
    ]);
  };
  useEffect(() => {
    void load();
    must(relay.GET('/v1/openapi.json')).then(
      (doc) => setKinds(conditionKindsOf(doc as Record<string, unknown>)),
      (err) => setError(messageOf(err)),
    );
    loadChoices().then(setChoices, (err) => setError(messageOf(err)));
  }, []);

  const labelOf = (kind: string): string => kinds.find((k) => k.kind === kind)?.label ?? kind;
  const sendTest = async (rule: AlertRule): Promise<void> => {
    try {
      const sent = await must(relay.POST('/v1/alert-rules/{ruleId}/test', { params: { path: { ruleId: rule.id } } }));
      const failed = sent.deliveries.filter((d) => d.error);
      await load(); // the history with the test alert, with the confirmation
      setNotice(
        `Test alert of “${rule.name}” queued to ${sent.deliveries.length - failed.length} of ${sent.deliveries.length} targets${failed.length ? ` (not queued: ${failed.map((d) => `${d.target_id}: ${d.error}`).join(', ')})` : ''}.`,
      );
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const remove = async (rule: AlertRule): Promise<void> => {
    setDeleting(null);
    try {
      await must(relay.DELETE('/v1/alert-rules/{ruleId}', { params: { path: { ruleId: rule.id } } }));
      await load(); // the list without the rule, with the confirmation
      setNotice(`Rule “${rule.name}” deleted.`);
    } catch (err) {
      setError(messageOf(err));
    }
  };

  return (
    <section aria-labelledby="alerts-title">
      <h1 id="alerts-title">Alerts</h1>
      <p class="hint">
        Be told through your own targets when a target is flagged, its breaker opens or closes, it fails often, an
        endpoint rejects many requests, or the monthly quota is nearly used. One alert per episode (docs/alerts.md).
      </p>
      {notice && <Notice kind="ok">{notice}</Notice>}
      {error && <Notice kind="error">{error}</Notice>}
      {props.can.edit && editing === null && (
        <button type="button" onClick={() => (setEditing('new'), setNotice(null))}>
          New alert rule
        </button>
      )}
      {editing !== null && kinds.length > 0 && (
        <RuleForm
          rule={editing === 'new' ? null : editing}
          kinds={kinds}
          choices={choices}
          onSaved={(saved, created) => (
            setEditing(null),
            setNotice(`Rule “${saved.name}” ${created ? 'created' : 'saved'}.`),
            void load()
          )}
          onCancel={() => setEditing(null)}
        />
      )}
      {!rules && !error && <Loading what="alert rules" />}
      {rules && rules.length === 0 && <p>No alert rules yet.</p>}
      {rules && rules.length > 0 && (
        <div class="table-wrap">
          <table class="list alerts-table">
            <caption class="sr-only">Alert rules of the account</caption>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Tells about</th>
                <th scope="col" class="wide-only">
                  Sends to
                </th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rules.map((r) => (
                <tr key={r.id}>
                  <td>
                    {r.name}
                    {!r.enabled && <span class="badge">disabled</span>}
                  </td>
                  <td>{r.conditions.map((c) => labelOf(c.kind)).join('; ')}</td>
                  <td class="wide-only">
                    {r.target_ids.map((id) => choices.targets.find((t) => t.id === id)?.name ?? id).join(', ')}
                  </td>
                  <td>
                    {props.can.edit && (
                      <div class="actions">
                        <button
                          type="button"
                          class="secondary"
                          onClick={() => void sendTest(r)}
                          aria-label={`Send a test alert of ${r.name}`}
                        >
                          Send test alert
                        </button>
                        <button
                          type="button"
                          class="secondary"
                          onClick={() => (setEditing(r), setNotice(null))}
                          aria-label={`Edit ${r.name}`}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          class="danger"
                          onClick={() => setDeleting(r)}
                          aria-label={`Delete ${r.name}`}
                        >
                          Delete…
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2 id="alert-history-title">Recent alerts</h2>
      {history.length === 0 ? (
        <p>No alert sent yet.</p>
      ) : (
        <div class="table-wrap">
          <table class="list alerts-table" aria-labelledby="alert-history-title">
            <thead>
              <tr>
                <th scope="col">When (UTC)</th>
                <th scope="col">Rule</th>
                <th scope="col">What happened</th>
              </tr>
            </thead>
            <tbody>
              {history.map((a) => (
                <tr key={a.id}>
                  <td>{utc(a.at)}</td>
                  <td>
                    {a.rule_name}
                    {a.test && <span class="badge">test</span>}
                  </td>
                  <td>
                    {a.summary} <a href={a.link}>Open the view that explains it</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Confirm
        open={deleting !== null}
        title={`Delete “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete rule"
        danger
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      >
        <p>No more alerts are sent for this rule. Alerts already sent stay in the history.</p>
      </Confirm>
    </section>
  );
}

function RuleForm(props: {
  rule: AlertRule | null;
  kinds: ConditionKindView[];
  choices: { endpoints: Choice[]; targets: Choice[] };
  onSaved: (r: AlertRule, created: boolean) => void;
  onCancel: () => void;
}) {
  const { kinds, choices } = props;
  const kindOf = (kind: string): ConditionKindView => kinds.find((k) => k.kind === kind) ?? kinds[0]!;
  const [name, setName] = useState(props.rule?.name ?? '');
  const [targets, setTargets] = useState<string[]>(props.rule?.target_ids ?? []);
  const [conditions, setConditions] = useState<ConditionDraft[]>(
    props.rule?.conditions.map((c) => draftOf(kindOf(c.kind), c as Record<string, unknown>)) ?? [draftOf(kinds[0]!)],
  );
  const [cooldown, setCooldown] = useState(String(props.rule?.cooldown_minutes ?? 60));
  const [enabled, setEnabled] = useState(props.rule?.enabled ?? true);
  const form = useFormErrors();

  const setCondition = (i: number, d: ConditionDraft): void =>
    setConditions(conditions.map((c, j) => (j === i ? d : c)));

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    const cooldownMinutes = /^\d+$/.test(cooldown.trim()) ? Number(cooldown.trim()) : cooldown;
    // sent as typed: the API names every field it refuses (an empty name, a missing target)
    const body = {
      name,
      enabled,
      target_ids: targets,
      conditions: conditions.map((d) => conditionOf(kindOf(d.kind!), d)),
      cooldown_minutes: cooldownMinutes,
    } as unknown as AlertRuleInput;
    try {
      const saved = props.rule
        ? await must(relay.PUT('/v1/alert-rules/{ruleId}', { params: { path: { ruleId: props.rule.id } }, body }))
        : await must(relay.POST('/v1/alert-rules', { body }));
      form.clear();
      props.onSaved(saved, props.rule === null);
    } catch (err) {
      form.fail(err);
    }
  };

  return (
    <ErrorScope form={form}>
      <form class="card" onSubmit={(e) => void submit(e)} aria-labelledby="rule-form-title">
        <h2 id="rule-form-title">{props.rule ? `Edit “${props.rule.name}”` : 'New alert rule'}</h2>
        <ErrorSummary />
        <Field path="name" label="Rule name">
          {(a) => (
            <input
              {...a}
              value={name}
              placeholder="e.g. Orders backend failing"
              onInput={(e) => setName(e.currentTarget.value)}
            />
          )}
        </Field>
        <fieldset>
          <legend>Send alerts to</legend>
          <GroupError path="target_ids" label="Send alerts to" />
          {choices.targets.length === 0 && (
            <p class="hint">The account has no targets yet: add one to an endpoint first.</p>
          )}
          {choices.targets.map((t) => (
            <label key={t.id} class="check">
              <input
                type="checkbox"
                checked={targets.includes(t.id)}
                onChange={(e) =>
                  setTargets(e.currentTarget.checked ? [...targets, t.id] : targets.filter((x) => x !== t.id))
                }
              />{' '}
              {t.name}
            </label>
          ))}
        </fieldset>
        {conditions.map((d, i) => {
          const kind = kindOf(d.kind!);
          return (
            <fieldset key={i}>
              <legend>Condition {i + 1}</legend>
              <GroupError path={`conditions[${i}]`} label={`Condition ${i + 1}`} />
              <Field path={`conditions[${i}].kind`} label="Tell me when" hint={kind.help}>
                {(a) => (
                  <select
                    {...a}
                    value={d.kind}
                    onChange={(e) => setCondition(i, draftOf(kindOf(e.currentTarget.value)))}
                  >
                    {kinds.map((k) => (
                      <option key={k.kind} value={k.kind}>
                        {k.label}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              {kind.fields.map((f) => (
                <Field key={f.name} path={`conditions[${i}].${f.name}`} label={f.label} hint={f.help}>
                  {(a) =>
                    f.type === 'integer' ? (
                      <input
                        {...a}
                        type="number"
                        min={f.min}
                        max={f.max}
                        value={d[f.name]}
                        onInput={(e) => setCondition(i, { ...d, [f.name]: e.currentTarget.value })}
                      />
                    ) : (
                      <select
                        {...a}
                        value={d[f.name]}
                        onChange={(e) => setCondition(i, { ...d, [f.name]: e.currentTarget.value })}
                      >
                        {f.type !== 'enum' && (
                          <option value="">
                            {f.required ? 'Choose…' : f.type === 'target' ? 'Any target' : 'Any endpoint'}
                          </option>
                        )}
                        {(f.type === 'enum'
                          ? (f.values ?? []).map((v) => ({ id: v, name: v }))
                          : f.type === 'target'
                            ? choices.targets
                            : choices.endpoints
                        ).map((c) => (
                          <option key={c.id} value={c.id}>
                            {c.name}
                          </option>
                        ))}
                      </select>
                    )
                  }
                </Field>
              ))}
              {conditions.length > 1 && (
                <button
                  type="button"
                  class="secondary"
                  onClick={() => setConditions(conditions.filter((_, j) => j !== i))}
                >
                  Remove condition {i + 1}
                </button>
              )}
            </fieldset>
          );
        })}
        <GroupError path="conditions" label="Conditions" />
        <button type="button" class="secondary" onClick={() => setConditions([...conditions, draftOf(kinds[0]!)])}>
          Add a condition
        </button>
        <Field
          path="cooldown_minutes"
          label="Quiet time that ends an episode (minutes)"
          hint="One alert per episode: a new one only after the condition was not seen for this long."
        >
          {(a) => (
            <input
              {...a}
              type="number"
              min={1}
              max={1440}
              value={cooldown}
              onInput={(e) => setCooldown(e.currentTarget.value)}
            />
          )}
        </Field>
        <label class="check">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} /> Enabled
        </label>
        <div class="actions">
          <button type="submit">{props.rule ? 'Save rule' : 'Create rule'}</button>
          <button type="button" class="secondary" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </ErrorScope>
  );
}
