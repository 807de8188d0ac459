import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type express from 'express';
import { createSsrfAgents, sendRequest } from '@relay/targets';
import type { OutboundRequest, SendOutcome } from '@relay/targets';
import { rewriteToFake } from './fake-platform';
import { selfSigned } from './rsa-keys';

/**
 * A platform fake served over HTTPS on loopback, reached through Relay's own sender: the real
 * host of an attempt is swapped for the fake's address (as the chat fakes do), the SSRF guard
 * stays on with only 127.0.0.1/32 allowed, and the fake's self-signed certificate is the one
 * extra trust anchor — so TLS is verified as in production and nothing leaves the machine.
 */
export interface HttpsFake {
  readonly baseUrl: string;
  /** the fake's self-signed certificate (PEM), valid for loopback and the platform's real host names */
  readonly ca: string;
  /** `host=127.0.0.1:port` for each real host: the deliverers' HOST_ROUTES entries that reach this fake */
  readonly routes: string[];
  send(req: OutboundRequest, opts?: { responseLimitBytes?: number }): Promise<SendOutcome>;
  close(): Promise<void>;
}

export async function startHttpsFake(
  platform: string,
  realHosts: readonly string[],
  app: express.Express,
): Promise<HttpsFake> {
  // a subject of its own: trusted together (NODE_EXTRA_CA_CERTS), same-named anchors would shadow each other
  const pems = selfSigned([{ name: 'commonName', value: `relay test fake ${platform}` }], {
    algorithm: 'sha256',
    days: 1,
    // the real host names too, so a deliverer process routed here (HOST_ROUTES) verifies TLS for them
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          ...realHosts.map((value) => ({ type: 2, value })),
        ],
      },
    ],
  });
  const server = https.createServer({ key: pems.private, cert: pems.cert }, app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = createSsrfAgents({ allowCidrs: ['127.0.0.1/32'], ca: pems.cert });
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl,
    ca: pems.cert,
    routes: realHosts.map((h) => `${h}=127.0.0.1:${port}`),
    send: (req, opts = {}) =>
      sendRequest(
        { ...req, url: rewriteToFake(platform, realHosts, req.url, baseUrl) },
        { timeoutMs: 5_000, agent, ...opts },
      ),
    close: () => {
      agent.https.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
