import { createHash } from 'node:crypto';
import type { InboundAuthSetting } from '@relay/endpoints';
import twilio from 'twilio';
import type { InboundRequest } from '../../../../../services/ingest-gateway/src/domain/auth/request';
import { verifyInbound } from '../../../../../services/ingest-gateway/src/domain/auth/verify';

const TOKEN = 'twilio-auth-token-1';
const NOW = new Date('2025-06-01T12:00:00.000Z');
const setting: InboundAuthSetting = { type: 'HMAC', preset: 'twilio', secrets: [TOKEN] };
const FORM = 'CallSid=CA123&From=%2B15557654321&To=%2B15551234567&Digits=1234';
const formParams = Object.fromEntries(new URLSearchParams(FORM));

function req(url: string, signature: string, body: string, contentType: string, method = 'POST'): InboundRequest {
  return {
    method,
    url,
    headers: { 'x-twilio-signature': signature, 'content-type': contentType },
    rawBody: Buffer.from(body),
  };
}

describe('HMAC preset twilio', () => {
  test('form POST: a request twilio.validateRequest accepts, we accept', () => {
    const url = 'https://relay.example/relay/ep_1?x=1';
    const signature = twilio.getExpectedTwilioSignature(TOKEN, url, formParams);
    expect(twilio.validateRequest(TOKEN, signature, url, formParams)).toBe(true);
    expect(verifyInbound(setting, req(url, signature, FORM, 'application/x-www-form-urlencoded'), NOW)).toEqual({
      ok: true,
    });
  });

  test('form POST: changing a query parameter of the signed URL fails', () => {
    const signature = twilio.getExpectedTwilioSignature(TOKEN, 'https://relay.example/relay/ep_1?x=1', formParams);
    expect(
      verifyInbound(
        setting,
        req('https://relay.example/relay/ep_1?x=2', signature, FORM, 'application/x-www-form-urlencoded'),
        NOW,
      ),
    ).toEqual({
      ok: false,
      reason: 'signature mismatch',
    });
  });

  test.each([
    [
      'signed with :443, received without a port',
      'https://relay.example:443/relay/ep_1',
      'https://relay.example/relay/ep_1',
    ],
    [
      'signed without a port, received with :443',
      'https://relay.example/relay/ep_1',
      'https://relay.example:443/relay/ep_1',
    ],
    [
      'signed with :80 over http, received without a port',
      'http://relay.example:80/relay/ep_1',
      'http://relay.example/relay/ep_1',
    ],
  ])('the URL is tried with and without the default port: %s', (_case, signedUrl, receivedUrl) => {
    const signature = twilio.getExpectedTwilioSignature(TOKEN, signedUrl, formParams);
    expect(verifyInbound(setting, req(receivedUrl, signature, FORM, 'application/x-www-form-urlencoded'), NOW)).toEqual(
      { ok: true },
    );
  });

  test('a non-default port is not dropped: signed with :8443, received without a port fails', () => {
    const signature = twilio.getExpectedTwilioSignature(TOKEN, 'https://relay.example:8443/relay/ep_1', formParams);
    expect(
      verifyInbound(
        setting,
        req('https://relay.example/relay/ep_1', signature, FORM, 'application/x-www-form-urlencoded'),
        NOW,
      ),
    ).toMatchObject({ ok: false });
  });

  describe('JSON body (bodySHA256 variant)', () => {
    const body = '{"ServiceSid":"IS123","EventType":"onMessageAdded"}';
    const url = `https://relay.example/relay/ep_1?bodySHA256=${createHash('sha256').update(body).digest('hex')}`;
    const signature = twilio.getExpectedTwilioSignature(TOKEN, url, {});

    test('a request twilio.validateRequestWithBody accepts, we accept', () => {
      expect(twilio.validateRequestWithBody(TOKEN, signature, url, body)).toBe(true);
      expect(verifyInbound(setting, req(url, signature, body, 'application/json'), NOW)).toEqual({ ok: true });
    });

    test('a body changed by one byte fails: it no longer hashes to bodySHA256', () => {
      expect(
        verifyInbound(setting, req(url, signature, body.replace('IS123', 'IS124'), 'application/json'), NOW),
      ).toEqual({ ok: false, reason: 'body does not match bodySHA256' });
    });
  });

  test('GET without a body: the signature covers the URL only', () => {
    const url = 'https://relay.example/relay/ep_1?CallSid=CA123&From=%2B15557654321';
    const signature = twilio.getExpectedTwilioSignature(TOKEN, url, {});
    expect(verifyInbound(setting, req(url, signature, '', 'text/plain', 'GET'), NOW)).toEqual({ ok: true });
  });
});
