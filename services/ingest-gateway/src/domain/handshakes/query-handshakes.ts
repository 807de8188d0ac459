import { createHash, createHmac } from 'node:crypto';
import { MAC_HANDSHAKES } from '@relay/endpoints';
import type { HandshakeKind, HmacPresetInboundAuth } from '@relay/endpoints';
import type { Outcome } from '@relay/contracts';
import { credentialEquals } from '../auth/constant-time';
import { rejections } from '../errors';
import type { HandshakeReply, IngestRejection } from '../errors';
import { echoable, jsonReply, textReply } from './reply';

/** What a query handshake reads of a request: no body is needed, so it is answered before one is read. */
export interface QueryHandshakeRequest {
  method: string;
  rawQuery: string;
  /** the URL as the sender used it (eBay hashes the endpoint's URL into its answer) */
  publicUrl: string;
}

/**
 * An answer (`mac`: it holds a MAC made with the event key, so it counts against
 * MAC_HANDSHAKES_PER_MINUTE), or the request's refusal.
 */
export type HandshakeOutcome =
  { ok: true; reply: HandshakeReply; what: string; mac: boolean } | { ok: false; rejection: IngestRejection };

/**
 * Handshakes recognised by method and query string alone. Each returns null when the request is
 * not that handshake (it then goes through the pipeline as an ordinary request).
 */
export function queryHandshake(
  kind: HandshakeKind,
  setting: HmacPresetInboundAuth,
  req: QueryHandshakeRequest,
): HandshakeOutcome | null {
  const q = new URLSearchParams(req.rawQuery);
  switch (kind) {
    case 'meta_hub_challenge':
      return req.method === 'GET' && q.get('hub.mode') === 'subscribe' && echoable(q.get('hub.challenge'))
        ? metaChallenge(setting, q)
        : null;
    case 'dropbox_challenge': {
      // Dropbox: GET ?challenge=…, echoed as text with nosniff; Dropbox does not sign it.
      const challenge = q.get('challenge');
      return req.method === 'GET' && echoable(challenge)
        ? { ok: true, reply: textReply(challenge), what: 'Dropbox challenge', mac: false }
        : null;
    }
    case 'x_crc': {
      // X CRC: the answer proves we hold the consumer secret (the current one, slot 1). It is the
      // MAC that signs X events, so only X-shaped tokens are answered (MAC_HANDSHAKES).
      const token = q.get('crc_token');
      if (req.method !== 'GET' || token === null) return null;
      const refused = badMacToken('x_crc', 'X CRC check', token, 'MALFORMED_QUERY_PARAM');
      if (refused) return refused;
      const digest = createHmac('sha256', setting.secrets[0] ?? '')
        .update(token)
        .digest('base64');
      return {
        ok: true,
        reply: jsonReply({ response_token: `sha256=${digest}` }),
        what: 'X CRC check',
        mac: true,
      };
    }
    case 'graph_validation_token': {
      // Microsoft Graph: POST ?validationToken=…, the decoded token as text within 10 s.
      const token = q.get('validationToken');
      return req.method === 'POST' && echoable(token)
        ? { ok: true, reply: textReply(token), what: 'Microsoft Graph validationToken', mac: false }
        : null;
    }
    case 'ebay_challenge': {
      const challenge = q.get('challenge_code');
      return req.method === 'GET' && echoable(challenge) ? ebayChallenge(setting, challenge, req.publicUrl) : null;
    }
    default:
      return null;
  }
}

/**
 * eBay's endpoint validation (developer.ebay.com "Marketplace account deletion"): GET
 * `?challenge_code=…`, answered 200 JSON `{"challengeResponse": hex SHA-256(challengeCode +
 * verificationToken + endpoint URL)}`. The endpoint URL is the one eBay was given: the URL as
 * received without the `challenge_code` eBay added.
 */
function ebayChallenge(setting: HmacPresetInboundAuth, challenge: string, publicUrl: string): HandshakeOutcome {
  if (setting.verify_token === undefined)
    return {
      ok: false,
      rejection: rejections.authFailed('eBay endpoint validation, but the endpoint has no verify_token'),
    };
  // the other query parameters are kept byte for byte, as eBay has them in the URL it was given
  const at = publicUrl.indexOf('?');
  const base = at < 0 ? publicUrl : publicUrl.slice(0, at);
  const rest =
    at < 0
      ? ''
      : publicUrl
          .slice(at + 1)
          .split('&')
          .filter((p) => !p.startsWith('challenge_code='))
          .join('&');
  const endpoint = rest === '' ? base : `${base}?${rest}`;
  const challengeResponse = createHash('sha256')
    .update(challenge)
    .update(setting.verify_token)
    .update(endpoint)
    .digest('hex');
  return { ok: true, reply: jsonReply({ challengeResponse }), what: 'eBay challenge_code', mac: false };
}

/** Meta: answer hub.challenge only when hub.verify_token is the endpoint's verify_token. */
function metaChallenge(setting: HmacPresetInboundAuth, q: URLSearchParams): HandshakeOutcome {
  const challenge = q.get('hub.challenge') ?? '';
  if (setting.verify_token === undefined)
    return {
      ok: false,
      rejection: rejections.authFailed('Meta subscription handshake, but the endpoint has no verify_token'),
    };
  if (!credentialEquals(q.get('hub.verify_token') ?? '', setting.verify_token))
    return { ok: false, rejection: rejections.authFailed('wrong hub.verify_token') };
  return { ok: true, reply: textReply(challenge), what: 'Meta hub.challenge', mac: false };
}

/**
 * A MAC handshake's token outside its shape is refused before any MAC is computed: otherwise the
 * answer would be a signature over text of the requester's choosing, such as an event body.
 */
export function badMacToken(
  kind: HandshakeKind,
  what: string,
  token: unknown,
  outcome: Outcome,
): HandshakeOutcome | null {
  const mac = MAC_HANDSHAKES[kind];
  if (mac === undefined || (typeof token === 'string' && mac.shape.test(token))) return null;
  return { ok: false, rejection: rejections.invalidHandshakeToken(what, mac, outcome) };
}
