import { HMAC_PRESET_INFO, MAC_HANDSHAKES } from '@relay/endpoints';
import type { HandshakeKind, HmacPresetInboundAuth, InboundAuthSetting } from '@relay/endpoints';

/** The endpoint's preset setting and its provider's handshake, when it has one. */
export function handshakeOf(
  setting: InboundAuthSetting,
): { kind: HandshakeKind; setting: HmacPresetInboundAuth } | null {
  if (setting.type !== 'HMAC' || setting.preset === 'custom') return null;
  const kind = HMAC_PRESET_INFO[setting.preset].spec.handshake;
  return kind === undefined ? null : { kind, setting };
}

/**
 * An event whose signed content is the body alone, and whose body has the shape of the preset's
 * MAC handshake token, carries a signature the handshake could have produced: it is refused
 * (AUTH_FAILED) whatever its signature, so no handshake answer is ever a valid event signature.
 * The provider never sends such a body (X events are JSON objects).
 */
export function signedLikeHandshake(
  handshake: { kind: HandshakeKind; setting: HmacPresetInboundAuth },
  rawBody: Buffer,
): string | null {
  const mac = MAC_HANDSHAKES[handshake.kind];
  const scheme = HMAC_PRESET_INFO[handshake.setting.preset].spec.scheme;
  const bodyOnly = scheme.family === 'hmac' && scheme.signed.length === 1 && scheme.signed[0] === 'body';
  if (mac === undefined || !bodyOnly || rawBody.length > 1024 || !mac.shape.test(rawBody.toString('latin1')))
    return null;
  return `the body has the shape of a ${mac.field}, whose MAC the handshake answers: never accepted as an event`;
}

export { bodyHandshake } from './body-handshakes';
export { queryHandshake } from './query-handshakes';
export type { HandshakeOutcome } from './query-handshakes';
