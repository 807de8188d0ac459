import { must } from '@relay/client';
import { completedRows, addQueueTarget, flagOf, removeTarget, sendJson } from '../support/queue-targets';
import { makeTestCa, startMtlsReceiver } from '../support/mtls';
import type { MtlsReceiver } from '../support/mtls';
import { startStack } from './stack';
import type { Stack } from './stack';

/*
 * Webhook targets with mutual TLS (docs/targets-webhook.md "Mutual TLS"), every service its own
 * process on the worker's shared stack: a loopback HTTPS receiver requires a client certificate
 * signed by a CA made in this file. Each case has an endpoint of its own, so its rows and flag
 * are its own.
 */

const ca = makeTestCa('e2e');
const stranger = makeTestCa('e2e-stranger');
let stack: Stack;
let receiver: MtlsReceiver;

beforeAll(async () => {
  stack = await startStack('webhook-mtls');
  receiver = await startMtlsReceiver(ca);
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

async function endpointWith(tls: Record<string, string>): Promise<{ endpointId: string; targetId: string }> {
  const endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'mtls' } }))).id;
  const targetId = await addQueueTarget(stack, endpointId, 'webhook', { url: receiver.url, tls });
  return { endpointId, targetId };
}

describe('a webhook target whose receiver requires a client certificate', () => {
  it('with the certificate and the pinned CA: delivered, and the key is never shown', async () => {
    const { endpointId, targetId } = await endpointWith({
      client_certificate_pem: ca.client.cert,
      client_key_pem: ca.client.key,
      ca_pem: ca.cert,
    });
    try {
      await sendJson(stack, endpointId, { paid: true });
      await completedRows(stack, endpointId, 1);
      expect(receiver.accepted).toContain('relay client e2e');
      const target = await must(
        stack.client.GET('/v1/endpoints/{endpointId}/targets/{targetId}', {
          params: { path: { endpointId, targetId } },
        }),
      );
      expect((target.config as { tls: unknown }).tls).toEqual({
        client_certificate_pem: ca.client.cert,
        client_key_pem: '[redacted]',
        ca_pem: ca.cert,
      });
      expect(JSON.stringify(target)).not.toContain('PRIVATE KEY');
    } finally {
      await removeTarget(stack, endpointId, targetId);
    }
  });

  it('without a certificate: the attempt fails with tls_client_certificate_required and flags the target', async () => {
    const { endpointId, targetId } = await endpointWith({ ca_pem: ca.cert });
    try {
      await sendJson(stack, endpointId, { paid: false });
      const flag = await flagOf(stack, endpointId, targetId);
      expect(flag.reason).toMatch(
        /^tls_client_certificate_required: the receiver requires a client certificate and none was presented \(ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED/,
      );
    } finally {
      await removeTarget(stack, endpointId, targetId);
    }
  });

  it('with a pinned CA that did not sign the receiver’s certificate: refused as untrusted, nothing sent', async () => {
    const before = receiver.accepted.length;
    const { endpointId, targetId } = await endpointWith({
      client_certificate_pem: ca.client.cert,
      client_key_pem: ca.client.key,
      ca_pem: stranger.cert,
    });
    try {
      await sendJson(stack, endpointId, { pinned: 'wrong' });
      const flag = await flagOf(stack, endpointId, targetId);
      expect(flag.reason).toMatch(/^SELF_SIGNED_CERT_IN_CHAIN: /);
      expect(receiver.accepted.length).toBe(before);
    } finally {
      await removeTarget(stack, endpointId, targetId);
    }
  });

  it('a key that is not the certificate’s is refused at save: 400, validation_failed, the field named', async () => {
    const endpointId = (await must(stack.client.POST('/v1/endpoints', { body: { name: 'mtls save' } }))).id;
    const { response, error } = await stack.client.POST('/v1/endpoints/{endpointId}/targets', {
      params: { path: { endpointId } },
      body: {
        kind: 'webhook',
        name: 'bank',
        config: {
          url: receiver.url,
          tls: { client_certificate_pem: ca.client.cert, client_key_pem: stranger.client.key },
        },
      },
    });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({
      code: 'validation_failed',
      errors: [
        {
          field: 'config.tls.client_key_pem',
          message: 'does not match client_certificate_pem (the key is not the certificate’s private key)',
        },
      ],
    });
    expect(JSON.stringify(error)).not.toContain('PRIVATE KEY');
  });
});
