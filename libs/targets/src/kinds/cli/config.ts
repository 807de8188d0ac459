import type { KindDescription } from '../../describe/field';
import { DEFAULT_IN_FLIGHT, MAX_IN_FLIGHT } from './caps';

/** A CLI session target's settings: where deliveries go is the listening CLI's own `--forward` URL. */
export interface CliConfig {
  /** deliveries one `relay listen` session holds unanswered at once */
  in_flight: number;
}

/**
 * Described once (docs/adding-a-target-kind.md). No URL and no credential: the server never
 * connects anywhere for this kind (docs/cli.md "SSRF"), it hands each delivery to the sessions
 * that dialled in.
 */
export const cliDescription: KindDescription = {
  label: 'CLI session (relay listen)',
  help: 'Deliveries go to the developers running `relay listen` for this endpoint, who forward them to their own local URL; with no session listening they are retried on the schedule, then recorded as failed. docs/cli.md.',
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
  },
};
