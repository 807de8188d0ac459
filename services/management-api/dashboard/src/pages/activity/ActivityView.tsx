import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { RelayApiError, messageOf, must, relay } from '../../api';
import { ErrorScope, ErrorSummary, useFormErrors } from '../../components/form-errors';
import { Field, Loading, Notice } from '../../components/ui';
import { alertLabel, isRetrying, mergeNewest, appendPage, outcomeLabel } from '../../lib/outcome';
import type { ActivityListed } from '@relay/client';
import type { DetailRow } from '../../lib/latency';
import type { Abilities } from '../../lib/roles';
import { UTC_INPUT, utc } from '../../lib/time';
import { href } from '../../router';
import type { Endpoint } from '@relay/client';
import { BulkRerun } from './BulkRerun';
import { BulkRetry } from './BulkRetry';
import { LatencyChart } from './LatencyChart';
import { RowDetail } from './RowDetail';
import { NO_FILTERS, STATUS_GROUPS, filterParams, filtersFromHash, hashWithFilters, searchesRows } from './filters';
import type { Filters } from './filters';

const PAGE = 50;
const TAIL_MS = 3000;
/** the chart reads the deliveries of at most this many loaded rows */
const CHART_ROWS = 100;

/** How many filters beside Show are set: said on the folded filters' button. */
const setCount = (f: Filters): number =>
  (Object.keys(NO_FILTERS) as Array<keyof Filters>).filter((k) => k !== 'status' && f[k] !== NO_FILTERS[k]).length;

/**
 * The Request activity view: the spec's filters, newest first, a page at a time (cursor paging,
 * never the whole log), rows that expand to their reason, deliveries and attempts, a live tail
 * by polling the first page, and a delivery-latency chart of the rows loaded.
 */
export function ActivityView(props: { endpointId: string | null; can: Abilities }) {
  // the filters live in the page's address: a filtered view can be shared, and Back restores the last one
  const [draft, setDraft] = useState<Filters>(() => filtersFromHash());
  const [filters, setFilters] = useState<Filters>(draft);
  const filterErrors = useFormErrors();
  // the filter fields fold away under one button; Show and the first rows stay in view
  const [filtersOpen, setFiltersOpen] = useState(false);
  const shownFilters = useRef(filters);
  shownFilters.current = filters;
  const [rows, setRows] = useState<ActivityListed[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState(true);
  const [updated, setUpdated] = useState<number | null>(null);
  const [announce, setAnnounce] = useState('');
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [details, setDetails] = useState<Map<string, DetailRow>>(new Map());
  const [endpoints, setEndpoints] = useState<Endpoint[]>([]);
  const generation = useRef(0);

  const params = filterParams(filters, props.endpointId);
  const tailing = live && !params.to;
  const names = new Map(endpoints.map((e) => [e.id, e.name]));

  useEffect(() => {
    must(relay.GET('/v1/endpoints')).then(
      (r) => setEndpoints(r.data),
      () => undefined,
    );
  }, []);

  // first page whenever the filters change
  useEffect(() => {
    const gen = ++generation.current;
    setRows(null);
    setError(null);
    filterErrors.clear();
    must(relay.GET('/v1/activity', { params: { query: { ...params, limit: PAGE } } })).then(
      (page) => {
        if (gen !== generation.current) return;
        setRows(page.data);
        setNext(page.next_cursor);
        setUpdated(Date.now());
      },
      (err) => {
        if (gen !== generation.current) return;
        // a filter that cannot match (not an IP, From after To): its message at its field
        if (err instanceof RelayApiError && err.errors.length > 0) {
          filterErrors.fail(
            err,
            `No request can match: ${err.errors.length === 1 ? 'a filter needs' : `${err.errors.length} filters need`} changing.`,
          );
        } else setError(messageOf(err));
      },
    );
  }, [JSON.stringify(params)]);

  // Back, Forward, or an address typed or shared: its filters
  useEffect(() => {
    const onHash = (): void => {
      const f = filtersFromHash();
      if (JSON.stringify(f) === JSON.stringify(shownFilters.current)) return;
      setRows(null);
      setDraft(f);
      setFilters(f);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  // live tail: the first page again, merged on top; paused by the user or by a fixed end time
  useEffect(() => {
    if (!tailing || rows === null) return;
    const timer = setInterval(() => {
      const gen = generation.current;
      if (document.hidden) return;
      must(relay.GET('/v1/activity', { params: { query: { ...params, limit: PAGE } } })).then(
        (page) => {
          if (gen !== generation.current) return;
          setRows((shown) => {
            const merged = mergeNewest(shown ?? [], page.data);
            if (merged.added > 0) setAnnounce(`${merged.added} new request${merged.added > 1 ? 's' : ''}`);
            return merged.rows;
          });
          setUpdated(Date.now());
        },
        () => undefined,
      );
    }, TAIL_MS);
    return () => clearInterval(timer);
  }, [tailing, rows === null, JSON.stringify(params)]);

  // deliveries of loaded rows for the latency chart (and the open rows), a few at a time
  useEffect(() => {
    const wanted = (rows ?? [])
      .filter((r) => r.outcome === 'ACCEPTED' && r.target_count > 0)
      .slice(0, CHART_ROWS)
      .filter((r) => {
        const known = details.get(r.id);
        return !known || (r.status !== 'pending' && known.deliveries.some((d) => d.state === 'retrying'));
      });
    if (wanted.length === 0) return;
    let cancelled = false;
    void (async () => {
      const got = new Map<string, DetailRow>();
      for (let i = 0; i < wanted.length && !cancelled; i += 4) {
        const batch = await Promise.all(
          wanted
            .slice(i, i + 4)
            .map((r) =>
              must(relay.GET('/v1/activity/{eventId}', { params: { path: { eventId: r.id } } })).catch(() => null),
            ),
        );
        batch.forEach((d) => d && got.set(d.id, d));
      }
      if (!cancelled && got.size) setDetails((m) => new Map([...m, ...got]));
    })();
    return () => {
      cancelled = true;
    };
  }, [rows]);

  const loadMore = async (): Promise<void> => {
    if (!next) return;
    const gen = generation.current;
    try {
      const page = await must(
        relay.GET('/v1/activity', { params: { query: { ...params, limit: PAGE, cursor: next } } }),
      );
      if (gen !== generation.current) return;
      setRows((shown) => appendPage(shown ?? [], page.data));
      setNext(page.next_cursor);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const toggle = (id: string): void => {
    const s = new Set(open);
    if (s.has(id)) s.delete(id);
    else s.add(id);
    setOpen(s);
  };
  // rows of the old filters leave in the same render as the filters change: the effect that
  // loads the new first page runs only after a paint, and until then the list would show rows
  // the new filters exclude (Errors showing Completed rows)
  const applyFilters = (chosen: Filters): void => {
    if (JSON.stringify(filterParams(chosen, props.endpointId)) !== JSON.stringify(params)) setRows(null);
    setFilters(chosen);
    shownFilters.current = chosen;
    // one history entry per view applied, so Back returns to the one before
    const address = hashWithFilters(chosen);
    if (address !== location.hash) location.hash = address;
  };
  const setStatus = (status: string): void => {
    setDraft({ ...draft, status });
    applyFilters({ ...filters, status });
  };
  const cols = props.endpointId ? 6 : 7;
  // a payload or response-status search reads 100 rows a call: the next call searches older rows
  const searching = searchesRows(filters);

  return (
    <div class="activity">
      <ErrorScope form={filterErrors}>
        <form
          class={`card filters${filtersOpen || filterErrors.message ? ' filters--open' : ''}`}
          aria-label="Activity filters"
          onSubmit={(e) => {
            e.preventDefault();
            applyFilters(draft);
          }}
        >
          <ErrorSummary />
          <fieldset class="status-groups">
            <legend>Show</legend>
            {STATUS_GROUPS.map(([g, label]) => (
              <label key={g} class={filters.status === g ? 'chosen' : ''}>
                <input
                  type="radio"
                  name="status"
                  value={g}
                  checked={filters.status === g}
                  onChange={() => setStatus(g)}
                />{' '}
                {label}
              </label>
            ))}
          </fieldset>
          <button
            type="button"
            class="secondary filters-toggle"
            aria-expanded={filtersOpen}
            aria-controls="filter-fields"
            onClick={() => setFiltersOpen(!filtersOpen)}
          >
            {filtersOpen ? 'Hide filters' : `Filters${setCount(filters) ? ` (${setCount(filters)} set)` : ''}`}
          </button>
          <div class="grid filter-fields" id="filter-fields">
            {!props.endpointId && (
              <Field path="endpoint_id" label="Endpoint">
                {(a) => (
                  <select
                    {...a}
                    value={draft.endpoint}
                    onChange={(e) => setDraft({ ...draft, endpoint: e.currentTarget.value })}
                  >
                    <option value="">All endpoints</option>
                    {endpoints.map((ep) => (
                      <option key={ep.id} value={ep.id}>
                        {ep.name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            )}
            <Field path="from" label="From (UTC)">
              {(a) => (
                <input
                  {...a}
                  {...UTC_INPUT}
                  value={draft.from}
                  onInput={(e) => setDraft({ ...draft, from: e.currentTarget.value })}
                />
              )}
            </Field>
            <Field path="to" label="To (UTC)">
              {(a) => (
                <input
                  {...a}
                  {...UTC_INPUT}
                  value={draft.to}
                  onInput={(e) => setDraft({ ...draft, to: e.currentTarget.value })}
                />
              )}
            </Field>
            <Field path="source_ip" label="Source IP">
              {(a) => (
                <input
                  {...a}
                  value={draft.sourceIp}
                  placeholder="203.0.113.7"
                  onInput={(e) => setDraft({ ...draft, sourceIp: e.currentTarget.value })}
                />
              )}
            </Field>
            <Field
              path="error"
              label="Error text"
              hint="What a row shows: its outcome, reason or delivery error. Searched within 24 hours."
            >
              {(a) => (
                <input
                  {...a}
                  value={draft.error}
                  onInput={(e) => setDraft({ ...draft, error: e.currentTarget.value })}
                />
              )}
            </Field>
            <Field
              path="payload"
              label="Payload contains"
              hint="Accepted requests, within 24 hours, 100 rows at a time."
            >
              {(a) => (
                <input
                  {...a}
                  value={draft.payload}
                  onInput={(e) => setDraft({ ...draft, payload: e.currentTarget.value })}
                />
              )}
            </Field>
            <Field path="response_status" label="Response status" hint="A target's answer: 503 or 5xx.">
              {(a) => (
                <input
                  {...a}
                  value={draft.responseStatus}
                  placeholder="5xx"
                  onInput={(e) => setDraft({ ...draft, responseStatus: e.currentTarget.value })}
                />
              )}
            </Field>
          </div>
          <div class="actions filter-fields">
            <button type="button" class="secondary" onClick={() => (setDraft(NO_FILTERS), applyFilters(NO_FILTERS))}>
              Clear filters
            </button>
            <button type="submit">Apply filters</button>
          </div>
        </form>
      </ErrorScope>

      <div class="tail-bar">
        <button
          type="button"
          class="secondary"
          aria-pressed={!live}
          onClick={() => setLive(!live)}
          disabled={Boolean(params.to)}
        >
          {live ? 'Pause live tail' : 'Resume live tail'}
        </button>
        <span class={`tail-state${tailing ? ' tail-state--live' : ''}`}>
          {params.to
            ? 'Live tail off: the window has an end.'
            : tailing
              ? `Live · updated ${updated ? utc(updated).slice(11) : '—'}`
              : 'Paused'}
        </span>
        <span class="sr-only" role="status" aria-live="polite">
          {announce}
        </span>
        {props.can.edit && filters.status === 'errors' && (
          <>
            <BulkRetry params={params} /> <BulkRerun params={params} />
          </>
        )}
      </div>

      {error && <Notice kind="error">{error}</Notice>}
      {!rows && !error && !filterErrors.message && <Loading what="activity" />}
      {rows && <LatencyChart rows={rows} details={details} />}
      {rows && rows.length === 0 && (
        <p>
          No requests match these filters
          {next ? (searching ? ' among the rows searched so far' : ' on the pages read so far') : ''}.
        </p>
      )}
      {rows && rows.length > 0 && (
        <div class="table-wrap">
          <table class="list activity-table">
            <caption class="sr-only">Requests, newest first</caption>
            <thead>
              <tr>
                <th scope="col">
                  <span class="sr-only">Details</span>
                </th>
                <th scope="col">Time (UTC)</th>
                {!props.endpointId && <th scope="col">Endpoint</th>}
                <th scope="col">Outcome</th>
                <th scope="col">Method</th>
                <th scope="col">Source IP</th>
                <th scope="col">Targets</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <Fragment key={r.id}>
                  <tr
                    class={`row--${r.status}${r.aggregate ? ' row--aggregate' : ''}${r.alert ? ' row--alert' : ''}`}
                    data-event-id={r.id}
                  >
                    <td class="c-expand">
                      <button
                        type="button"
                        class="expander"
                        aria-expanded={open.has(r.id)}
                        aria-controls={`detail-${r.id}`}
                        onClick={() => toggle(r.id)}
                        aria-label={`${open.has(r.id) ? 'Hide' : 'Show'} details of the ${r.alert ? 'alert' : 'request'} at ${utc(r.received_at)}`}
                      >
                        {open.has(r.id) ? '▾' : '▸'}
                      </button>
                    </td>
                    <td class="c-time">{utc(r.received_at).replace(' UTC', '')}</td>
                    {!props.endpointId && (
                      <td class="c-endpoint">
                        <a href={href('endpoints', r.endpoint_id)}>{names.get(r.endpoint_id) ?? r.endpoint_id}</a>
                      </td>
                    )}
                    <td class="c-outcome">
                      {isRetrying(r) ? (
                        // a delivery failed and waits for its next attempt: Retrying, with when (from the listed row, no extra request)
                        <>
                          <span
                            class="outcome outcome--retrying"
                            title={`A delivery failed; next attempt at ${utc(r.next_attempt_at!)}`}
                          >
                            {r.alert ? alertLabel(r) : outcomeLabel(r)}
                          </span>{' '}
                          <span class="next-attempt">next attempt {utc(r.next_attempt_at!).slice(11)}</span>
                        </>
                      ) : (
                        <span
                          class={`outcome outcome--${r.outcome === 'ACCEPTED' || r.outcome === null ? r.status : 'errors'}`}
                        >
                          {r.alert ? alertLabel(r) : outcomeLabel(r)}
                        </span>
                      )}
                      {r.alert && (
                        <span class="alert-what">
                          {r.alert.title} · rule “{r.alert.rule_name}”
                        </span>
                      )}
                      {r.test && <span class="badge">Test</span>}
                      {r.aggregate && <span class="badge">×{r.aggregate.count} aggregated</span>}
                    </td>
                    <td class="c-method">{r.method}</td>
                    <td class="c-ip">
                      {r.aggregate ? (
                        <span title="Aggregated rows have no single source IP">—</span>
                      ) : r.alert ? (
                        <span title="Sent by Relay: an alert has no sender">Relay</span>
                      ) : (
                        r.source_ip
                      )}
                    </td>
                    <td class="c-targets">
                      {r.target_count}
                      <span class="narrow-only-inline"> target{r.target_count === 1 ? '' : 's'}</span>
                    </td>
                  </tr>
                  {open.has(r.id) && (
                    <tr class="detail-row" id={`detail-${r.id}`}>
                      <td colSpan={cols}>
                        <RowDetail
                          row={r}
                          can={props.can}
                          known={details.get(r.id) ?? null}
                          onDetail={(d) => setDetails((m) => new Map(m).set(d.id, d))}
                        />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rows && (
        <p class="paging">
          {rows.length} row{rows.length === 1 ? '' : 's'} loaded.{' '}
          {next ? (
            <button type="button" class="secondary" onClick={() => void loadMore()}>
              {searching ? 'Search older' : 'Load older'}
            </button>
          ) : (
            'End of the log for these filters.'
          )}
        </p>
      )}
    </div>
  );
}
