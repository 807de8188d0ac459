import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { createKafkaLink } from '@relay/targets';
import { selfSigned } from '../../support/rsa-keys';

/** the target whose pooled client the link calls use */
const OWNER = { endpointId: 'ep_owner', targetId: 'tg_owner' };

/*
 * The Kafka transport with TLS on, against a loopback TLS server whose certificate nothing
 * trusts (selfsigned is a test-only package, so this lives outside libs/targets/src).
 */

const record = { topic: 't', value: Buffer.from('{}'), headers: {}, timestamp: '0' };
const options = {
  allowCidrs: ['127.0.0.1/32'],
  connectTimeoutMs: 1000,
  commandTimeoutMs: 5000,
  maxClients: 4,
  idleMs: 60_000,
};

describe('a Kafka target with TLS on', () => {
  it("a broker whose certificate is not trusted is refused, the certificate's problem named", async () => {
    const pems = selfSigned([{ name: 'commonName', value: 'localhost' }], { days: 1 });
    const server = tls.createServer({ key: pems.private, cert: pems.cert }, (socket) => socket.end());
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const link = createKafkaLink(options);
    try {
      expect(await link.produce(OWNER, { brokers: [`localhost:${port}`], tls: true }, record)).toEqual({
        error: { code: 'DEPTH_ZERO_SELF_SIGNED_CERT', message: expect.any(String) },
      });
    } finally {
      link.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
