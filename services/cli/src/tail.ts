import type { ActivityListed, RelayApi } from './api';

/** ids already printed, newest kept: bounds what a long tail holds */
const SEEN_MAX = 2_000;

/** One row a line; `-` in place of the outcome while the request's record is on its way to the log. */
export function activityLine(row: ActivityListed): string {
  return `${row.received_at}  ${row.id}  ${row.endpoint_id}  ${(row.outcome ?? '-').padEnd(10)} ${row.status.padEnd(9)} ${row.last_error ?? ''}`.trimEnd();
}

export interface TailOptions {
  endpointId?: string | undefined;
  limit: number;
  intervalMs: number;
  follow: boolean;
  print(row: ActivityListed): void;
  warn(line: string): void;
}

/**
 * `relay activity tail`: the latest rows oldest first, then — following — every row not printed
 * yet, looked for each interval (one page of the newest rows a look; a burst larger than a page
 * between two looks shows its newest page). A failed look is reported and the tail goes on.
 */
export function tailActivity(api: RelayApi, opts: TailOptions): { done: Promise<void>; stop(): void } {
  const seen = new Set<string>();
  let stopping = false;
  let wake: (() => void) | null = null;
  const look = async (limit: number): Promise<void> => {
    const rows = await api.listActivity({ ...(opts.endpointId ? { endpoint_id: opts.endpointId } : {}), limit });
    for (const row of [...rows].reverse()) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      if (seen.size > SEEN_MAX) seen.delete(seen.values().next().value as string);
      opts.print(row);
    }
  };
  const done = (async () => {
    await look(opts.limit);
    while (opts.follow && !stopping) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, opts.intervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (stopping) return;
      await look(200).catch((e: Error) => opts.warn(`relay activity tail: ${e.message}`));
    }
  })();
  return {
    done,
    stop() {
      stopping = true;
      wake?.();
    },
  };
}
