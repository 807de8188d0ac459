import { createHmac } from 'node:crypto';
import type { HandshakeKind, HmacPresetInboundAuth } from '@relay/endpoints';
import type { InboundRequest } from '../auth/request';
import { verifyInbound } from '../auth/verify';
import { headerValue } from '../auth/request';
import { echoable, jsonObject, jsonReply, textReply } from './reply';
import type { HandshakeOutcome } from './query-handshakes';

/**
 * Handshakes that arrive as signed events (Slack, Zoom, Twitch): checked only after the
 * request passed the preset's own verification, so a forged challenge is refused as AUTH_FAILED
 * before it gets here. Null: not a handshake, an ordinary event.
 */
export function bodyHandshake(
  kind: HandshakeKind,
  setting: HmacPresetInboundAuth,
  req: InboundRequest,
  now: Date,
): HandshakeOutcome | null {
  switch (kind) {
    case 'slack_url_verification': {
      const body = jsonObject(req.rawBody);
      return body?.type === 'url_verification' && echoable(body.challenge)
        ? { ok: true, reply: jsonReply({ challenge: body.challenge }), what: 'Slack url_verification' }
        : null;
    }
    case 'zoom_url_validation': {
      const body = jsonObject(req.rawBody);
      const plainToken = (body?.payload as { plainToken?: unknown } | undefined)?.plainToken;
      if (body?.event !== 'endpoint.url_validation' || !echoable(plainToken)) return null;
      // Zoom checks encryptedToken with its secret token: use the slot that signed this request.
      const secret = signingSecret(setting, req, now);
      const encryptedToken = createHmac('sha256', secret).update(plainToken).digest('hex');
      return { ok: true, reply: jsonReply({ plainToken, encryptedToken }), what: 'Zoom endpoint.url_validation' };
    }
    case 'twitch_callback_verification': {
      if (headerValue(req, 'twitch-eventsub-message-type') !== 'webhook_callback_verification') return null;
      const challenge = jsonObject(req.rawBody)?.challenge;
      return echoable(challenge)
        ? { ok: true, reply: textReply(challenge), what: 'Twitch webhook_callback_verification' }
        : null;
    }
    default:
      return null;
  }
}

/** The rotation slot whose secret verifies this (already verified) request. */
function signingSecret(setting: HmacPresetInboundAuth, req: InboundRequest, now: Date): string {
  const matching = setting.secrets.find((secret) => verifyInbound({ ...setting, secrets: [secret] }, req, now).ok);
  return matching ?? setting.secrets[0] ?? '';
}
