import { useEffect, useState } from 'preact/hooks';
import { messageOf, must, relay } from '../../api';
import { Confirm, Loading, Notice, Switch } from '../../components/ui';
import type { Abilities } from '../../lib/roles';
import { utc } from '../../lib/time';
import { href } from '../../router';
import type { Target, TargetKindList } from '@relay/client';
import { ConfigSummary } from './ConfigSummary';
import { HeldKeys } from './HeldKeys';
import { TargetForm } from './TargetForm';

const BREAKER_LABELS = { open: 'Breaker open', half_open: 'Probing', paused: 'Paused', closed: '' } as const;
const BREAKER_NOTES = {
  open: 'Failing: deliveries are held (no attempts used); one is sent as a probe after the cool-down',
  half_open: 'Probing: one delivery is sent to see whether the destination recovered; the rest are held',
  paused: 'Paused by hand: deliveries are held (no attempts used) until resumed',
  closed: '',
} as const;

/**
 * What happens next to a target whose breaker is open, and what a person can do: as the flag's
 * note says how to clear it (docs/delivery-limits.md "Circuit breaker").
 */
function openBreakerNext(t: Target, kinds: TargetKindList): string {
  // a target without settings of its own has the described defaults (`target_fields` of GET /v1/target-kinds)
  const described = kinds.target_fields.find((f) => f.name === 'breaker')?.fields ?? [];
  const setting = (name: 'cool_down_s' | 'flag_after_open_s'): string =>
    String(t.breaker?.[name] ?? described.find((f) => f.name === name)?.default ?? '?');
  const b = { cool_down_s: setting('cool_down_s'), flag_after_open_s: setting('flag_after_open_s') };
  return `After ${b.cool_down_s} s one held delivery is sent as a probe: if it succeeds the breaker closes and the held deliveries go out. Fix the destination meanwhile, or Pause the target to hold its deliveries without probes. Still open after ${b.flag_after_open_s} s, the target is flagged.`;
}

/** The endpoint's targets (spec "Outputs"): add, rename, switch, replace, delete, clear a flag, pause and resume. */
export function Outputs(props: { endpointId: string; can: Abilities }) {
  const [targets, setTargets] = useState<Target[] | null>(null);
  // every kind's description: the forms and summaries are drawn from it (GET /v1/target-kinds)
  const [kinds, setKinds] = useState<TargetKindList | null>(null);
  const [error, setError] = useState<string | null>(null);
  // a confirmation where the action was taken: in that target's card (`at`), or above the list
  // (an added or deleted target); the next action clears it
  const [notice, setNotice] = useState<{ at: string | null; text: string } | null>(null);
  const [adding, setAdding] = useState(false);
  const [replacing, setReplacing] = useState<Target | null>(null);
  const [deleting, setDeleting] = useState<Target | null>(null);
  const [disabling, setDisabling] = useState<Target | null>(null);
  const endpointId = props.endpointId;
  const target = (targetId: string) => ({ params: { path: { endpointId, targetId } } });
  const load = (): Promise<void> =>
    must(relay.GET('/v1/endpoints/{endpointId}/targets', { params: { path: { endpointId } } })).then(
      (r) => setTargets(r.data),
      (err) => setError(messageOf(err)),
    );
  useEffect(() => void load(), [props.endpointId]);
  useEffect(() => {
    must(relay.GET('/v1/target-kinds')).then(setKinds, (err) => setError(messageOf(err)));
  }, []);
  const kindOf = (t: Target) => kinds?.data.find((k) => k.kind === t.kind);

  const run = async (what: () => Promise<unknown>, done: string, at: string | null): Promise<void> => {
    setError(null);
    setNotice(null);
    try {
      await what();
      // the cards read again before the confirmation: a switch shown in its old state until then
      // would do the opposite of what it shows when clicked
      await load();
      setNotice({ at, text: done });
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const created = async (t: Target): Promise<void> => {
    // a changed configuration is a new target (the API keeps configs immutable): the old one goes
    // a rename or a new retry schedule keeps the target (same id): nothing to delete
    if (replacing && replacing.id !== t.id)
      await run(
        () => must(relay.DELETE('/v1/endpoints/{endpointId}/targets/{targetId}', target(replacing.id))),
        `Target replaced by ${t.name}.`,
        t.id,
      );
    else
      setNotice({
        at: replacing ? t.id : null,
        text: replacing ? `Target ${t.name} saved.` : `Target ${t.name} added.`,
      });
    setAdding(false);
    setReplacing(null);
    void load();
  };

  return (
    <section aria-labelledby="outputs-title">
      <h2 id="outputs-title">Outputs</h2>
      {notice && notice.at === null && <Notice kind="ok">{notice.text}</Notice>}
      {error && <Notice kind="error">{error}</Notice>}
      {(!targets || !kinds) && !error && <Loading what="targets" />}
      {targets && targets.length === 0 && <p>No targets: accepted requests are logged but go nowhere.</p>}
      {kinds &&
        targets?.map((t) => (
          <div
            // a flagged target and one whose breaker is open both take no delivery now: both in red
            class={`card target${t.flagged || t.breaker_state.state === 'open' ? ' target--stopped' : ''}`}
            key={t.id}
            aria-labelledby={`t-${t.id}`}
          >
            <div class="title-row">
              <h3 id={`t-${t.id}`}>{t.name}</h3>
              <span class="badge">{kindOf(t)?.label ?? t.kind}</span>
              {t.flagged && <span class="state state--disabled">Flagged</span>}
              {t.breaker_state.state !== 'closed' && (
                <span class={`state state--${t.breaker_state.state === 'paused' ? 'paused' : 'disabled'}`}>
                  {BREAKER_LABELS[t.breaker_state.state]}
                </span>
              )}
            </div>
            {t.breaker_state.state !== 'closed' && (
              <div
                class={`notice${t.breaker_state.state === 'open' ? ' notice--error' : ''}`}
                role="note"
                aria-label={`Breaker of ${t.name}`}
              >
                <p>
                  <strong>{BREAKER_NOTES[t.breaker_state.state]}</strong> since {utc(t.breaker_state.since)}
                  {t.breaker_state.reason ? `: ${t.breaker_state.reason}` : ''}
                </p>
                {t.breaker_state.state === 'open' && <p>{openBreakerNext(t, kinds)}</p>}
              </div>
            )}
            {t.flagged && (
              <div class="notice notice--error" role="note">
                <p>
                  <strong>Deliveries to this target are stopped</strong> since {utc(t.flagged.at)}: {t.flagged.reason}
                </p>
                <p>
                  Fix the destination (or replace this target's configuration), then clear the flag. Deliveries
                  dead-lettered meanwhile are sent again with <code>npm run redrive</code>.
                </p>
                {props.can.may('clearTargetFlag') && (
                  <button
                    type="button"
                    onClick={() =>
                      void run(
                        () => must(relay.DELETE('/v1/endpoints/{endpointId}/targets/{targetId}/flag', target(t.id))),
                        `Flag of ${t.name} cleared.`,
                        t.id,
                      )
                    }
                  >
                    Clear flag
                  </button>
                )}
              </div>
            )}
            <ConfigSummary target={t} kind={kindOf(t)} />
            {t.ordering && <HeldKeys endpointId={endpointId} target={t} />}
            <div class="controls">
              <Switch
                id={`enabled-${t.id}`}
                label="Enabled"
                checked={t.enabled}
                disabled={!props.can.may('updateTarget')}
                onChange={(on) =>
                  on
                    ? void run(
                        () =>
                          must(
                            relay.PATCH('/v1/endpoints/{endpointId}/targets/{targetId}', {
                              ...target(t.id),
                              body: { enabled: true },
                            }),
                          ),
                        `${t.name} enabled.`,
                        t.id,
                      )
                    : (setNotice(null), setDisabling(t))
                }
              />
              {t.breaker_state.state === 'paused'
                ? props.can.may('resumeTarget') && (
                    <button
                      type="button"
                      class="secondary"
                      onClick={() =>
                        void run(
                          () => must(relay.POST('/v1/endpoints/{endpointId}/targets/{targetId}/resume', target(t.id))),
                          `${t.name} resumed: held deliveries are sent within a minute.`,
                          t.id,
                        )
                      }
                    >
                      Resume
                    </button>
                  )
                : props.can.may('pauseTarget') && (
                    <button
                      type="button"
                      class="secondary"
                      onClick={() =>
                        void run(
                          () => must(relay.POST('/v1/endpoints/{endpointId}/targets/{targetId}/pause', target(t.id))),
                          `${t.name} paused: its deliveries are held until resumed.`,
                          t.id,
                        )
                      }
                    >
                      Pause
                    </button>
                  )}
              <a
                href={href('endpoints', endpointId, 'transformation', t.id)}
                aria-label={`Transformation of ${t.name}`}
              >
                Transformation
              </a>
              {props.can.may('createTarget') && (
                <button
                  type="button"
                  class="secondary"
                  onClick={() => (setReplacing(t), setAdding(false), setNotice(null))}
                >
                  Edit…
                </button>
              )}
              {props.can.may('deleteTarget') && (
                <>
                  <button type="button" class="danger" onClick={() => (setDeleting(t), setNotice(null))}>
                    Delete…
                  </button>
                </>
              )}
            </div>
            {notice && notice.at === t.id && <Notice kind="ok">{notice.text}</Notice>}
            {replacing?.id === t.id && (
              <TargetForm
                endpointId={props.endpointId}
                kinds={kinds}
                replacing={t}
                onDone={(n) => void created(n)}
                onCancel={() => setReplacing(null)}
              />
            )}
          </div>
        ))}
      {props.can.may('createTarget') &&
        kinds &&
        (adding ? (
          <TargetForm
            endpointId={props.endpointId}
            kinds={kinds}
            replacing={null}
            onDone={(n) => void created(n)}
            onCancel={() => setAdding(false)}
          />
        ) : (
          <button type="button" onClick={() => (setAdding(true), setReplacing(null), setNotice(null))}>
            Add target
          </button>
        ))}
      <Confirm
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? ''}?`}
        confirmLabel="Delete target"
        danger
        onConfirm={() => (
          deleting &&
            void run(
              () => must(relay.DELETE('/v1/endpoints/{endpointId}/targets/{targetId}', target(deleting.id))),
              `${deleting.name} deleted.`,
              null,
            ),
          setDeleting(null)
        )}
        onCancel={() => setDeleting(null)}
      >
        <p>
          Requests accepted from now on are no longer delivered to it, and its configuration is gone. This cannot be
          undone.
        </p>
      </Confirm>
      <Confirm
        open={disabling !== null}
        title={`Disable ${disabling?.name ?? ''}?`}
        confirmLabel="Disable target"
        danger
        onConfirm={() => (
          disabling &&
            void run(
              () =>
                must(
                  relay.PATCH('/v1/endpoints/{endpointId}/targets/{targetId}', {
                    ...target(disabling.id),
                    body: { enabled: false },
                  }),
                ),
              `${disabling.name} disabled: requests accepted from now on are not delivered to it.`,
              disabling.id,
            ),
          setDisabling(null)
        )}
        onCancel={() => setDisabling(null)}
      >
        <p>
          Requests accepted while it is disabled are not delivered to it (a Resend can send them once it is enabled
          again). Its configuration is kept.
        </p>
      </Confirm>
    </section>
  );
}
