import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type express from 'express';
import { generate } from 'selfsigned';
import { createSsrfAgents, sendRequest } from '@relay/targets';
import type { OutboundRequest, SendOutcome } from '@relay/targets';
import { rewriteToFake } from './fake-platform';

/**
 * A platform fake served over HTTPS on loopback, reached through Relay's own sender: the real
 * host of an attempt is swapped for the fake's address (as the chat fakes do), the SSRF guard
 * stays on with only 127.0.0.1/32 allowed, and the fake's self-signed certificate is the one
 * extra trust anchor — so TLS is verified as in production and nothing leaves the machine.
 */
export interface HttpsFake {
  readonly baseUrl: string;
  send(req: OutboundRequest, opts?: { responseLimitBytes?: number }): Promise<SendOutcome>;
  close(): Promise<void>;
}

export async function startHttpsFake(platform: string, realHosts: readonly string[], app: express.Express): Promise<HttpsFake> {
  const pems = generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    days: 1,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] }],
  });
  const server = https.createServer({ key: pems.private, cert: pems.cert }, app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = createSsrfAgents({ allowCidrs: ['127.0.0.1/32'], ca: pems.cert });
  return {
    baseUrl,
    send: (req, opts = {}) => sendRequest({ ...req, url: rewriteToFake(platform, realHosts, req.url, baseUrl) }, { timeoutMs: 5_000, agent, ...opts }),
    close: () => {
      agent.https.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
