import type { ActivityTally } from './activity-tally';
import type { BrokerOutage, FaultRecord } from './faults';
import type { Arrival } from './receiver';
import type { Sent } from './stream';

const DQU = 'delivery_queue_unavailable';

/** The run's figures: what docs/reliability.md records. */
export interface Figures {
  events: number;
  accepted: number;
  /** 503 delivery_queue_unavailable answers */
  unavailable: number;
  /** any other answer, by `status code` */
  otherAnswers: Record<string, number>;
  /** requests that got no answer, by error */
  unanswered: Record<string, number>;
  /** accepted events that reached the receiver (answered 2xx) at least once */
  delivered: number;
  /** accepted events that never did (must be 0), and a few of their numbers */
  lost: number;
  lostSample: number[];
  /** 2xx arrivals beyond the first of their event */
  duplicates: number;
  /** events answered 503 that were delivered all the same (the spec allows it) */
  deliveredDespite503: number;
  /** requests the receiver got, and how many it answered 503 on purpose (first attempts) */
  receiverRequests: number;
  failedFirstAttempts: number;
  /** accepted events whose arrivals carried more than one event id (must be 0) */
  eventIdMismatches: number;
  /** accepted events with no ACCEPTED row, ACCEPTED rows with no accepted event */
  acceptedWithoutRow: number;
  /** up to 10 of them: event id and the request's number in the stream, to look up in the kept logs */
  acceptedWithoutRowSample: string[];
  rowsWithoutAcceptedEvent: number;
  broker: BrokerFigures | null;
  /** the slowest requests (no answer counts as slowest), to line up with the fault timeline */
  slowest: Array<{ n: number; sentAtS: number; latencyMs: number | null; answer: string }>;
  /** the stream in twentieths by send time: where anything but a quick 202 happened */
  windows: Array<{
    fromS: number;
    toS: number;
    sent: number;
    accepted: number;
    unavailable: number;
    other: number;
    unanswered: number;
    maxLatencyMs: number;
  }>;
}

export interface BrokerFigures {
  /** gone → the first 503 delivery_queue_unavailable answer */
  first503Ms: number | null;
  /** back → the first 202 answer */
  recoveryMs: number | null;
  /** the longest run of consecutive 503 delivery_queue_unavailable answers, first to last */
  max503WindowMs: number;
  /** requests sent after the broker was gone and answered before it was back that got a 202 (must be 0) */
  acceptedWhileAway: number;
  downMs: number;
  /** failing-first events whose retry was waiting when the broker went and that were delivered after it was back */
  retriesAcross: number;
  /** of those waiting retries, events not delivered at all (must be 0) */
  retriesAcrossLost: number;
}

export function computeFigures(
  sent: Sent[],
  arrivals: Arrival[],
  tally: ActivityTally,
  broker: BrokerOutage | null,
  failsFirst: (n: number) => boolean,
): Figures {
  const accepted = sent.filter((s) => s.status === 202);
  const ok = new Map<number, number>();
  const idsOf = new Map<number, Set<string>>();
  for (const a of arrivals) {
    if (a.status < 300) ok.set(a.n, (ok.get(a.n) ?? 0) + 1);
    (idsOf.get(a.n) ?? idsOf.set(a.n, new Set()).get(a.n)!).add(a.eventId);
  }
  const lost = accepted.filter((s) => !ok.has(s.n)).map((s) => s.n);
  const otherAnswers: Record<string, number> = {};
  const unanswered: Record<string, number> = {};
  for (const s of sent) {
    if (s.status === 0) unanswered[s.error ?? 'no answer'] = (unanswered[s.error ?? 'no answer'] ?? 0) + 1;
    else if (s.status !== 202 && !(s.status === 503 && s.code === DQU))
      otherAnswers[`${s.status} ${s.code ?? ''}`] = (otherAnswers[`${s.status} ${s.code ?? ''}`] ?? 0) + 1;
  }
  const withoutRow: { id: string; n: number }[] = [];
  const acceptedIds = new Set<string>();
  for (const s of accepted) {
    for (const id of idsOf.get(s.n) ?? []) {
      acceptedIds.add(id);
      if (!tally.accepted.has(id)) withoutRow.push({ id, n: s.n });
    }
  }
  return {
    events: sent.length,
    accepted: accepted.length,
    unavailable: sent.filter((s) => s.status === 503 && s.code === DQU).length,
    otherAnswers,
    unanswered,
    delivered: accepted.length - lost.length,
    lost: lost.length,
    lostSample: lost.slice(0, 10),
    duplicates: [...ok.values()].reduce((sum, c) => sum + c - 1, 0),
    deliveredDespite503: sent.filter((s) => s.status !== 202 && ok.has(s.n)).length,
    receiverRequests: arrivals.length,
    failedFirstAttempts: arrivals.filter((a) => a.status === 503).length,
    eventIdMismatches: accepted.filter((s) => (idsOf.get(s.n)?.size ?? 0) > 1).length,
    acceptedWithoutRow: withoutRow.length,
    acceptedWithoutRowSample: withoutRow.slice(0, 10).map((w) => `${w.id} (#${w.n})`),
    rowsWithoutAcceptedEvent: [...tally.accepted].filter((id) => !acceptedIds.has(id)).length,
    broker: broker ? brokerFigures(sent, arrivals, broker, failsFirst) : null,
    ...timeline(sent),
  };
}

const answerOf = (s: Sent): string =>
  s.status === 0 ? `no answer (${s.error ?? '?'})` : s.status === 202 ? '202' : `${s.status} ${s.code ?? ''}`;

function timeline(sent: Sent[]): Pick<Figures, 'slowest' | 'windows'> {
  const start = sent[0]?.sentAt ?? 0;
  const latency = (s: Sent): number => (s.answeredAt > 0 ? s.answeredAt - s.sentAt : Infinity);
  const slowest = [...sent]
    .sort((a, b) => latency(b) - latency(a))
    .slice(0, 10)
    .map((s) => ({
      n: s.n,
      sentAtS: Math.round((s.sentAt - start) / 100) / 10,
      latencyMs: s.answeredAt > 0 ? s.answeredAt - s.sentAt : null,
      answer: answerOf(s),
    }));
  const span = Math.max(1, (sent.at(-1)?.sentAt ?? start) - start + 1);
  const windows = Array.from({ length: 20 }, (_, i) => ({
    fromS: Math.round((i * span) / 20 / 100) / 10,
    toS: Math.round(((i + 1) * span) / 20 / 100) / 10,
    sent: 0,
    accepted: 0,
    unavailable: 0,
    other: 0,
    unanswered: 0,
    maxLatencyMs: 0,
  }));
  for (const s of sent) {
    const w = windows[Math.min(19, Math.floor(((s.sentAt - start) * 20) / span))]!;
    w.sent += 1;
    if (s.status === 202) w.accepted += 1;
    else if (s.status === 503 && s.code === DQU) w.unavailable += 1;
    else if (s.status === 0) w.unanswered += 1;
    else w.other += 1;
    if (s.answeredAt > 0) w.maxLatencyMs = Math.max(w.maxLatencyMs, s.answeredAt - s.sentAt);
  }
  return { slowest, windows };
}

function brokerFigures(
  sent: Sent[],
  arrivals: Arrival[],
  b: BrokerOutage,
  failsFirst: (n: number) => boolean,
): BrokerFigures {
  const byAnswer = sent.filter((s) => s.answeredAt > 0).sort((x, y) => x.answeredAt - y.answeredAt);
  const isDqu = (s: Sent): boolean => s.status === 503 && s.code === DQU;
  const first503 = byAnswer.find((s) => s.answeredAt >= b.goneAt && isDqu(s));
  const first202 = byAnswer.find((s) => s.answeredAt >= b.backAt && s.status === 202);
  let max503WindowMs = 0;
  let runStart: number | null = null;
  for (const s of byAnswer) {
    if (isDqu(s)) {
      runStart ??= s.answeredAt;
      max503WindowMs = Math.max(max503WindowMs, s.answeredAt - runStart);
    } else if (s.status === 202) runStart = null;
  }
  // retries waiting at the stop: events failing first whose 503 came before the broker went, with no success by then
  const waiting = new Set<number>();
  const deliveredBefore = new Set<number>();
  for (const a of arrivals) {
    if (a.at >= b.goneAt || !failsFirst(a.n)) continue;
    if (a.status === 503) waiting.add(a.n);
    else deliveredBefore.add(a.n);
  }
  for (const n of deliveredBefore) waiting.delete(n);
  const deliveredAfter = new Set(
    arrivals.filter((a) => a.status < 300 && a.at >= b.backAt && waiting.has(a.n)).map((a) => a.n),
  );
  return {
    first503Ms: first503 ? first503.answeredAt - b.goneAt : null,
    recoveryMs: first202 ? first202.answeredAt - b.backAt : null,
    max503WindowMs,
    acceptedWhileAway: sent.filter((s) => s.status === 202 && s.sentAt > b.goneAt && s.answeredAt < b.backAt).length,
    downMs: b.backAt - b.goneAt,
    retriesAcross: deliveredAfter.size,
    retriesAcrossLost: [...waiting].filter((n) => !arrivals.some((a) => a.n === n && a.status < 300)).length,
  };
}

const pct = (n: number, of: number): string => (of === 0 ? '-' : `${((100 * n) / of).toFixed(2)}%`);

/** The figures as the suite prints them (and docs/reliability.md records them). */
export function formatReport(
  f: Figures,
  tally: ActivityTally,
  faults: FaultRecord[],
  streamStart: number,
  extra: string[],
): string {
  const rel = (t: number): string => `${((t - streamStart) / 1000).toFixed(1)} s`;
  const b = f.broker;
  return [
    `chaos: ${f.events} events sent`,
    ...extra.map((l) => `  ${l}`),
    `  answers: ${f.accepted} 202, ${f.unavailable} 503 delivery_queue_unavailable, other ${JSON.stringify(f.otherAnswers)}, unanswered ${JSON.stringify(f.unanswered)}`,
    `  receiver: ${f.receiverRequests} requests, ${f.failedFirstAttempts} first attempts refused on purpose (503)`,
    `  delivered ${f.delivered} of ${f.accepted} accepted, lost ${f.lost}${f.lost ? ` (e.g. ${f.lostSample.join(', ')})` : ''}, duplicates ${f.duplicates} (${pct(f.duplicates, f.delivered)}), delivered despite a 503: ${f.deliveredDespite503}`,
    `  activity rows: ${tally.rows} rows for ${tally.requests} requests (${tally.aggregatedRows} aggregated rows folding ${tally.aggregatedRequests}), by outcome ${JSON.stringify(tally.byOutcome)}, by status ${JSON.stringify(tally.byStatus)}, pending ${tally.pending}, attempts without a request ${tally.attemptsOnly}`,
    `  accepted events without an ACCEPTED row ${f.acceptedWithoutRow}${f.acceptedWithoutRow ? ` (e.g. ${f.acceptedWithoutRowSample.join(', ')})` : ''}, ACCEPTED rows without an accepted event ${f.rowsWithoutAcceptedEvent}`,
    b
      ? `  broker restart: down ${b.downMs} ms; first 503 ${b.first503Ms} ms after it went; first 202 ${b.recoveryMs} ms after it was back; longest 503 window ${b.max503WindowMs} ms; 202s while away ${b.acceptedWhileAway}; retries waiting across it delivered after it: ${b.retriesAcross} (lost ${b.retriesAcrossLost})`
      : '  broker restart: did not happen',
    '  faults:',
    ...faults.map(
      (x) =>
        `    ${rel(x.startedAt).padStart(8)} (${(x.atShare * 100).toFixed(0)}% sent)  ${x.name.padEnd(30)} ${x.detail}`,
    ),
    '  stream by send time (twentieths; answers other than 202, slowest answer):',
    ...f.windows.map(
      (w) =>
        `    ${`${w.fromS}–${w.toS} s`.padStart(16)}  ${String(w.sent).padStart(6)} sent  ${String(w.accepted).padStart(6)} 202  ${String(w.unavailable).padStart(5)} 503  ${w.other} other  ${w.unanswered} unanswered  slowest ${w.maxLatencyMs} ms`,
    ),
    `  slowest requests: ${f.slowest.map((s) => `#${s.n} sent at ${s.sentAtS} s: ${s.latencyMs ?? '-'} ms ${s.answer}`).join('; ')}`,
    ...(tally.odd.length
      ? [
          `  rows that are neither ACCEPTED nor DELIVERY_QUEUE_UNAVAILABLE: ${tally.odd.map((o) => `${o.id} ${o.outcome} at ${rel(o.at)}`).join('; ')}`,
        ]
      : []),
  ].join('\n');
}
