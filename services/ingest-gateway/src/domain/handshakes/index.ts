import { HMAC_PRESET_INFO } from '@relay/endpoints';
import type { HandshakeKind, HmacPresetInboundAuth, InboundAuthSetting } from '@relay/endpoints';

/** The endpoint's preset setting and its provider's handshake, when it has one. */
export function handshakeOf(
  setting: InboundAuthSetting,
): { kind: HandshakeKind; setting: HmacPresetInboundAuth } | null {
  if (setting.type !== 'HMAC' || setting.preset === 'custom') return null;
  const kind = HMAC_PRESET_INFO[setting.preset].spec.handshake;
  return kind === undefined ? null : { kind, setting };
}

export { bodyHandshake } from './body-handshakes';
export { queryHandshake } from './query-handshakes';
export type { HandshakeOutcome } from './query-handshakes';
