import { MIRROR_MAX_PERCENT } from './caps';

/*
 * A mirror CLI session target (`relay listen --mirror 10%`, docs/cli.md "Mirror") receives a
 * sample of its endpoint's events. The gateway decides per event, from the event id alone: the
 * same event is in or out of the sample for every gateway instance and for a resend, with no
 * state to share and no random source to seed, and a test can tell which events a mirror should
 * see. Event ids are random (a ULID's 80 random bits), so the hash spreads them evenly.
 */

/** The mirror share of a stored CLI target's config, or null for a target that takes every event. */
export function mirrorPercentOf(kind: string, config: { mirror_percent?: unknown }): number | null {
  const p = config.mirror_percent;
  return kind === 'cli' && typeof p === 'number' && p < MIRROR_MAX_PERCENT ? p : null;
}

/** Whether an event is in a mirror's sample of `percent`: FNV-1a (32 bit) of its id, in hundredths. */
export function inMirrorSample(eventId: string, percent: number): boolean {
  let h = 0x811c9dc5;
  for (let i = 0; i < eventId.length; i++) {
    h ^= eventId.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 10_000 < percent * 100;
}
