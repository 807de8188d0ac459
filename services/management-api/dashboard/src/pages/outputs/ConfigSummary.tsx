import { Fragment } from 'preact';
import type { ComponentChildren } from 'preact';
import { isHidden } from '../../lib/kind-form';
import type { Value } from '../../lib/kind-form';
import type { TargetKindField, Target, TargetKind } from '@relay/client';

/*
 * A target's config as the API shows it, drawn from its kind's description: each setting by its
 * label; a credential only as "set" (a masked URL beside it), never its value.
 */

const REDACTED = '[redacted]';
const duration = (ms: number): string =>
  ms % 3_600_000 === 0 && ms > 0
    ? `${ms / 3_600_000}h`
    : ms % 60_000 === 0 && ms > 0
      ? `${ms / 60_000}min`
      : `${ms / 1000}s`;
const isObject = (v: unknown): v is Value => typeof v === 'object' && v !== null && !Array.isArray(v);
const set = <span class="badge">set</span>;

function shown(f: TargetKindField, v: unknown): ComponentChildren {
  if (v === undefined || v === null) return f.type === 'object' ? 'off' : f.type === 'boolean' ? 'unset' : 'none';
  if (v === REDACTED) return set;
  if (f.credential && typeof v === 'string')
    return (
      <>
        {set} <code class="break">{v}</code>
      </>
    );
  if (f.type === 'boolean') return v ? 'on' : 'off';
  if (f.type === 'enum') return f.values?.find((x) => x.value === v)?.label ?? String(v);
  if (f.type === 'variant' && isObject(v)) {
    const variant = f.variants?.find((x) => x.value === v[f.tag!]);
    const parts = (variant?.fields ?? [])
      .filter((x) => v[x.name] !== undefined)
      .map((x) => (
        <Fragment key={x.name}>
          {' '}
          · {x.label.toLowerCase()} {shown(x, v[x.name])}
        </Fragment>
      ));
    return (
      <>
        {variant?.label ?? String(v[f.tag!])}
        {parts}
      </>
    );
  }
  if (f.type === 'object' && isObject(v))
    return (f.fields ?? [])
      .filter((x) => !isHidden(x))
      .map((x) => (
        <span key={x.name} class="chip">
          {x.label}: {shown(x, v[x.name])}
        </span>
      ));
  if (f.type === 'list' && Array.isArray(v)) {
    if (v.length === 0) return 'none';
    const item = f.items!;
    return v.map((entry, i) =>
      isObject(entry) ? (
        <span key={i} class="chip">
          {String(entry.name ?? i + 1)}: {entry.value === REDACTED ? set : <code>{String(entry.value ?? '')}</code>}
        </span>
      ) : (
        <span key={i} class="chip">
          {shown(item, entry)}
        </span>
      ),
    );
  }
  return <code class="break">{String(v)}</code>;
}

/** `10 a second, 4 in flight`; `none` (docs/delivery-limits.md) */
export function limitsText(l: Target['limits']): string {
  const parts = [l?.rate ? `${l.rate} a ${l.per}` : '', l?.max_in_flight ? `${l.max_in_flight} in flight` : ''].filter(
    Boolean,
  );
  return parts.length > 0 ? parts.join(', ') : 'none';
}

/** `payload field data.id`, `header x-order-key` (docs/ordering.md) */
export function orderingText(o: NonNullable<Target['ordering']>): ComponentChildren {
  return o.key.from === 'path' ? (
    <>
      payload field <code>{o.key.path}</code>
    </>
  ) : (
    <>
      header <code>{o.key.header}</code>
    </>
  );
}

export function ConfigSummary(props: { target: Target; kind: TargetKind | undefined }) {
  const t = props.target;
  const schedule = t.retry_schedule_ms ?? t.default_retry_schedule_ms;
  const fields = (props.kind?.fields ?? []).filter((f) => !isHidden(f));
  return (
    <dl class="config">
      {fields.map((f) => (
        <Fragment key={f.name}>
          <dt>{f.label}</dt>
          <dd>{shown(f, t.config[f.name])}</dd>
        </Fragment>
      ))}
      <dt>Retry schedule</dt>
      <dd>
        {schedule
          ? schedule.length === 0
            ? 'no retries'
            : `${schedule.map(duration).join(', ')}${t.retry_schedule_ms ? '' : ' (default)'}`
          : 'default'}
      </dd>
      <dt>Limits</dt>
      <dd>
        {limitsText(t.limits ?? t.default_limits)}
        {t.limits ? '' : ' (default)'}
      </dd>
      {t.ordering && (
        <>
          <dt>Ordering key</dt>
          <dd>{orderingText(t.ordering)}</dd>
        </>
      )}
    </dl>
  );
}
