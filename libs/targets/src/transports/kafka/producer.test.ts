import net from 'node:net';
import { createKafkaLink } from './producer';

/** the target whose pooled client the link calls use */
const OWNER = { endpointId: 'ep_owner', targetId: 'tg_owner' };

const record = { topic: 't', value: Buffer.from('{}'), headers: {}, timestamp: '0' };
const options = (allowCidrs: string[]) => ({
  allowCidrs,
  connectTimeoutMs: 1000,
  commandTimeoutMs: 5000,
  maxClients: 4,
  idleMs: 60_000,
});

describe('the SSRF guard on every socket to a broker', () => {
  it('a loopback address or a name that resolves to one is refused before any socket is opened', async () => {
    const link = createKafkaLink(options([]));
    try {
      for (const broker of ['127.0.0.1:9', 'localhost:9'])
        expect(await link.produce(OWNER, { brokers: [broker], tls: false }, record)).toEqual({
          error: { code: 'SSRF_BLOCKED', message: expect.any(String) },
        });
      // a client that could not connect is not kept
      expect(link.size).toBe(0);
    } finally {
      link.close();
    }
  });

  it('an allowed address is dialled: nothing listens there, so the socket is refused', async () => {
    const link = createKafkaLink(options(['127.0.0.1/32']));
    try {
      expect(await link.produce(OWNER, { brokers: ['127.0.0.1:9'], tls: false }, record)).toEqual({
        error: { code: 'ECONNREFUSED', message: expect.any(String) },
      });
    } finally {
      link.close();
    }
  });
});

describe('a broker that takes the connection and never answers', () => {
  it('the attempt ends as ETIMEDOUT at the connect timeout, whatever the client would retry, and keeps no client', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const link = createKafkaLink({ ...options(['127.0.0.1/32']), connectTimeoutMs: 300, commandTimeoutMs: 1000 });
    try {
      expect(await link.produce(OWNER, { brokers: [`127.0.0.1:${port}`], tls: false }, record)).toEqual({
        error: { code: 'ETIMEDOUT', message: 'not connected within 300 ms' },
      });
      expect(link.size).toBe(0);
    } finally {
      link.close();
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
