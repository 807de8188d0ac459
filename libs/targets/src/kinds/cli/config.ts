import type { KindDescription } from '../../describe/field';
import { DEFAULT_IN_FLIGHT, MAX_IN_FLIGHT, MIRROR_MAX_PERCENT, MIRROR_MIN_PERCENT } from './caps';

/** A CLI session target's settings: where deliveries go is the listening CLI's own `--forward` URL. */
export interface CliConfig {
  /** deliveries one `relay listen` session holds unanswered at once */
  in_flight: number;
  /** a mirror: only this percent of the endpoint's events (a sample by event id) are delivered to it */
  mirror_percent?: number;
}

/**
 * Described once (docs/adding-a-target-kind.md). No URL and no credential: the server never
 * connects anywhere for this kind (docs/cli.md "SSRF"), it hands each delivery to the sessions
 * that dialled in.
 */
export const cliDescription: KindDescription = {
  label: 'CLI session (relay listen)',
  help: 'Deliveries go to the developers running `relay listen` for this endpoint, who forward them to their own local URL; with no session listening they are kept (up to 10,000 for 24 h) and delivered in order when one connects. docs/cli.md.',
  fields: {
    in_flight: {
      type: 'integer',
      label: 'Deliveries in flight per session',
      help: `how many deliveries one listening CLI holds unanswered at once (1–${MAX_IN_FLIGHT})`,
      default: DEFAULT_IN_FLIGHT,
      minimum: 1,
      maximum: MAX_IN_FLIGHT,
      message: `in_flight must be an integer from 1 to ${MAX_IN_FLIGHT}`,
    },
    mirror_percent: {
      type: 'integer',
      label: 'Mirror: percent of events sampled',
      help: `set: the target is a mirror (relay listen --mirror) that receives this share of the endpoint's events, chosen by event id; unset: every event (${MIRROR_MIN_PERCENT}–${MIRROR_MAX_PERCENT})`,
      minimum: MIRROR_MIN_PERCENT,
      maximum: MIRROR_MAX_PERCENT,
      message: `mirror_percent must be an integer from ${MIRROR_MIN_PERCENT} to ${MIRROR_MAX_PERCENT}`,
    },
  },
};
