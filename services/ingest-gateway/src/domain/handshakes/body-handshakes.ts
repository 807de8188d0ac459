import { createHmac } from 'node:crypto';
import type { HandshakeKind, HmacPresetInboundAuth } from '@relay/endpoints';
import type { InboundRequest } from '../auth/request';
import { verifyInbound } from '../auth/verify';
import { headerValue } from '../auth/request';
import { badMacToken } from './query-handshakes';
import type { HandshakeOutcome } from './query-handshakes';
import { echoable, jsonObject, jsonReply, textReply } from './reply';

/**
 * Handshakes that arrive as signed events (Slack, Zoom, Twitch, Discord): checked only after the
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
        ? { ok: true, reply: jsonReply({ challenge: body.challenge }), what: 'Slack url_verification', mac: false }
        : null;
    }
    case 'zoom_url_validation': {
      const body = jsonObject(req.rawBody);
      if (body?.event !== 'endpoint.url_validation') return null;
      const plainToken = (body.payload as { plainToken?: unknown } | undefined)?.plainToken;
      const refused = badMacToken(kind, 'Zoom endpoint.url_validation', plainToken, 'MALFORMED_PAYLOAD');
      if (refused) return refused;
      // Zoom checks encryptedToken with its secret token: use the slot that signed this request.
      const secret = signingSecret(setting, req, now);
      const encryptedToken = createHmac('sha256', secret)
        .update(plainToken as string)
        .digest('hex');
      return {
        ok: true,
        reply: jsonReply({ plainToken, encryptedToken }),
        what: 'Zoom endpoint.url_validation',
        mac: true,
      };
    }
    case 'twitch_callback_verification': {
      if (headerValue(req, 'twitch-eventsub-message-type') !== 'webhook_callback_verification') return null;
      const challenge = jsonObject(req.rawBody)?.challenge;
      return echoable(challenge)
        ? { ok: true, reply: textReply(challenge), what: 'Twitch webhook_callback_verification', mac: false }
        : null;
    }
    case 'discord_ping':
      // Discord saves an interactions endpoint URL only after a signed PING (type 1) is answered
      // 200 with JSON {"type":1} (PONG).
      return jsonObject(req.rawBody)?.type === 1
        ? { ok: true, reply: jsonReply({ type: 1 }), what: 'Discord PING', mac: false }
        : null;
    default:
      return null;
  }
}

/** The rotation slot whose secret verifies this (already verified) request. */
function signingSecret(setting: HmacPresetInboundAuth, req: InboundRequest, now: Date): string {
  const matching = setting.secrets.find((secret) => verifyInbound({ ...setting, secrets: [secret] }, req, now).ok);
  return matching ?? setting.secrets[0] ?? '';
}
