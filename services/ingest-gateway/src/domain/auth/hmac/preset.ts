import type { HmacPresetInfo } from '@relay/endpoints';
import type { InboundRequest, VerifyResult } from '../request';

/** What a preset verifier gets besides the request. */
export interface PresetContext {
  /** The endpoint's one or two active secrets (for Discord, application public keys in hex). */
  secrets: readonly string[];
  /** The preset's header names and defaults, from the shared settings model. */
  info: HmacPresetInfo;
  now: Date;
  /** Replay window in force, or null when the preset signs no timestamp and none was set. */
  toleranceSeconds: number | null;
}

/** A verification family: interprets `ctx.info.spec`, the preset described as data. */
export type PresetVerifier = (req: InboundRequest, ctx: PresetContext) => VerifyResult;
