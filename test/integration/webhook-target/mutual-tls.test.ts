import { createSender } from '@relay/targets';
import type { OutboundRequest, SendOutcome } from '@relay/targets';
import { makeTestCa, startMtlsReceiver } from '../../support/mtls';
import type { MtlsReceiver, TestCa } from '../../support/mtls';

/*
 * The sender's mutual TLS (docs/targets-webhook.md "Mutual TLS") against a loopback receiver
 * that requires a client certificate its CA signed: the certificate is presented, a pinned CA
 * is the only trust for its target, and one target's connections are never another's.
 */

const ca = makeTestCa('receiver');
const stranger = makeTestCa('stranger');
let receiver: MtlsReceiver;
let send: ReturnType<typeof createSender>;

beforeAll(async () => {
  receiver = await startMtlsReceiver(ca);
  send = createSender({ timeoutMs: 5000, allowCidrs: ['127.0.0.1/32'] });
});
afterAll(() => receiver.close());

const request = (targetId: string, tls: Omit<NonNullable<OutboundRequest['tls']>, 'owner'>): OutboundRequest => ({
  url: receiver.url,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from('{}'),
  tls: { owner: { endpointId: 'ep_1', targetId }, ...tls },
});
const codeOf = (o: SendOutcome): string | number => ('response' in o ? o.response.status : o.error.code);
const withClient = (from: TestCa) => ({ cert: from.client.cert, key: from.client.key, ca: ca.cert });

describe('mutual TLS to a receiver that requires a client certificate', () => {
  it('presents the target’s client certificate, trusting the pinned CA: delivered', async () => {
    const before = receiver.accepted.length;
    expect(codeOf(await send(request('tg_with', withClient(ca))))).toBe(200);
    expect(receiver.accepted.slice(before)).toEqual(['relay client receiver']);
  });

  it('without a client certificate the receiver’s certificate_required alert ends the attempt', async () => {
    const outcome = await send(request('tg_without', { ca: ca.cert }));
    expect(codeOf(outcome)).toBe('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED');
  });

  it('a certificate from a CA the receiver does not trust is not accepted', async () => {
    const before = receiver.accepted.length;
    expect(codeOf(await send(request('tg_stranger', withClient(stranger))))).toBe(403);
    expect(receiver.accepted.length).toBe(before);
  });

  it('a pinned CA that did not sign the receiver’s certificate: the receiver is not trusted', async () => {
    const outcome = await send(
      request('tg_wrong_pin', { cert: ca.client.cert, key: ca.client.key, ca: stranger.cert }),
    );
    expect(codeOf(outcome)).toBe('SELF_SIGNED_CERT_IN_CHAIN');
  });

  it('without a pin the public roots apply, which do not hold the test CA', async () => {
    const outcome = await send(request('tg_no_pin', { cert: ca.client.cert, key: ca.client.key }));
    expect(codeOf(outcome)).toBe('SELF_SIGNED_CERT_IN_CHAIN');
  });

  it('a kept-alive connection that presented one target’s certificate is never used for another target', async () => {
    // the first target's connection stays open after its answer...
    expect(codeOf(await send(request('tg_a', withClient(ca))))).toBe(200);
    // ...and a second target with the same receiver and pinned CA but no certificate gets its own
    expect(codeOf(await send(request('tg_b', { ca: ca.cert })))).toBe('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED');
    expect(codeOf(await send(request('tg_a', withClient(ca))))).toBe(200);
  });

  it('a changed or deleted target’s own connections are closed (release): its next attempt connects anew', async () => {
    expect(codeOf(await send(request('tg_changed', withClient(ca))))).toBe(200);
    const made = receiver.connectionsMade();
    // kept alive: the next attempt reuses the connection
    expect(codeOf(await send(request('tg_changed', withClient(ca))))).toBe(200);
    expect(receiver.connectionsMade()).toBe(made);
    send.release('tg_changed');
    expect(codeOf(await send(request('tg_changed', withClient(ca))))).toBe(200);
    expect(receiver.connectionsMade()).toBe(made + 1);
  });
});
