import { randomBytes, X509Certificate } from 'node:crypto';
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Duplex } from 'node:stream';
import * as tls from 'node:tls';
import forge from 'node-forge';
import { rsaKeyPair } from './rsa-keys';

/**
 * A test CA made in the test, with the receiver's certificate (for 127.0.0.1) and a client
 * certificate it signed, all SHA-256 (OpenSSL refuses SHA-1 signatures, which is all
 * `selfsigned` gives a client certificate).
 */
export interface TestCa {
  /** the CA's certificate (PEM): what the receiver trusts for clients, and what a target pins */
  cert: string;
  server: Pem;
  client: Pem;
}

export interface Pem {
  cert: string;
  key: string;
}

const DAY = 86_400_000;

type Keys = { privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey };
function keys(): Keys {
  const key = forge.pki.privateKeyFromPem(rsaKeyPair().privateKey);
  return { privateKey: key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e) };
}

interface Issue {
  cn: string;
  subject: Keys;
  issuer: { cn: string; keys: Keys };
  extensions: object[];
  /** validity start, ms from now (negative: in the past); default an hour ago */
  fromMs?: number;
  days?: number;
}

function issue(i: Issue): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = i.subject.publicKey;
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() + (i.fromMs ?? -3_600_000));
  cert.validity.notAfter = new Date(cert.validity.notBefore.getTime() + (i.days ?? 1) * DAY);
  cert.setSubject([{ name: 'commonName', value: i.cn }]);
  cert.setIssuer([{ name: 'commonName', value: i.issuer.cn }]);
  cert.setExtensions(i.extensions);
  cert.sign(i.issuer.keys.privateKey, forge.md.sha256.create());
  return lf(forge.pki.certificateToPem(cert));
}

// forge writes CRLF; PEM files, and what a browser's text box sends, end lines with LF
const lf = (pem: string): string => pem.replace(/\r\n/g, '\n');
const keyPem = (k: Keys): string => lf(forge.pki.privateKeyToPem(k.privateKey));

/** `client.expiredDaysAgo`: a client certificate whose validity ended that many days ago. */
export function makeTestCa(name: string, opts: { clientExpiredDaysAgo?: number } = {}): TestCa {
  const caKeys = keys();
  const caCn = `relay test CA ${name}`;
  const issuer = { cn: caCn, keys: caKeys };
  const cert = issue({
    cn: caCn,
    subject: caKeys,
    issuer,
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true },
    ],
  });
  const serverKeys = keys();
  const server = issue({
    cn: `relay receiver ${name}`,
    subject: serverKeys,
    issuer,
    extensions: [
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  const clientKeys = keys();
  const expired = opts.clientExpiredDaysAgo;
  const client = issue({
    cn: `relay client ${name}`,
    subject: clientKeys,
    issuer,
    extensions: [
      { name: 'keyUsage', digitalSignature: true },
      { name: 'extKeyUsage', clientAuth: true },
    ],
    ...(expired !== undefined ? { fromMs: -(expired + 1) * DAY, days: 1 } : {}),
  });
  return { cert, server: { cert: server, key: keyPem(serverKeys) }, client: { cert: client, key: keyPem(clientKeys) } };
}

/** What the receiver saw: the subject of each client certificate it accepted, in order. */
export interface MtlsReceiver {
  url: string;
  accepted: string[];
  /** connections it has accepted so far (a kept-alive connection reused adds none) */
  connectionsMade(): number;
  close(): Promise<void>;
}

/**
 * An HTTPS receiver on loopback that requires a client certificate (TLS 1.3: a missing one is
 * refused with the `certificate_required` alert) and answers 200 to one signed by `ca`.
 *
 * Node's own TLS server would destroy the socket on that alert with the client's request still
 * unread, and the kernel then resets the connection, racing the alert to the client. Like a
 * server with a lingering close (nginx), this one reads what the client sent and then closes
 * (a FIN after the alert), so the client always reads the alert: the TLS layer runs over a
 * stream of its own, and its destruction only ends the connection. Node verifies the
 * certificate's issuer after the handshake (a tls.Server's `authorized`), where a receiver built
 * on OpenSSL's own verification would send `unknown_ca`: one `ca` did not issue is answered 403.
 */
export async function startMtlsReceiver(ca: TestCa): Promise<MtlsReceiver> {
  const accepted: string[] = [];
  const issuer = new X509Certificate(ca.cert);
  const secureContext = tls.createSecureContext({
    key: ca.server.key,
    cert: ca.server.cert,
    ca: ca.cert,
    minVersion: 'TLSv1.3',
  });
  const app = http.createServer((req, res) => {
    const socket = req.socket as tls.TLSSocket;
    req.resume();
    req.on('end', () => {
      const peer = socket.getPeerX509Certificate();
      if (!peer?.checkIssued(issuer) || !peer.verify(issuer.publicKey))
        return void res.writeHead(403).end('client certificate not issued by the CA');
      accepted.push(peer.subject.replace(/^CN=/, ''));
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  const connections = new Set<net.Socket>();
  let made = 0;
  const server = net.createServer((raw) => {
    made++;
    connections.add(raw);
    raw.on('close', () => connections.delete(raw));
    raw.on('error', () => undefined);
    const stream = new Duplex({
      read() {},
      write: (chunk: Buffer, _encoding, done) => void raw.write(chunk, done),
      final: (done) => (raw.end(), done()),
      destroy: (err, done) => (raw.resume(), raw.end(), done(err)),
    });
    raw.on('data', (chunk) => stream.push(chunk));
    raw.on('end', () => stream.push(null));
    const socket = new tls.TLSSocket(stream, {
      isServer: true,
      secureContext,
      requestCert: true,
      rejectUnauthorized: true,
    });
    socket.on('error', () => undefined);
    socket.on('secure', () => app.emit('connection', socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/in`,
    accepted,
    connectionsMade: () => made,
    close: () => {
      for (const c of connections) c.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A CA made in the test that issues signing certificates: what a provider's certificate URL
 * serves (SNS, PayPal), chained to this CA as the provider's chain is to a public root.
 */
export interface SigningCa {
  /** the CA's certificate (PEM): the trust anchor the gateway is given, or an intermediate */
  cert: string;
  /** a leaf naming `name` (subject CN and DNS SAN); `expiredDaysAgo`: its validity ended then */
  issue(name: string, opts?: { expiredDaysAgo?: number }): Pem;
  /** an intermediate CA issued by this one */
  issueCa(label: string): SigningCa;
}

export function makeSigningCa(label: string, parent?: { cn: string; keys: Keys }): SigningCa {
  const caKeys = keys();
  const self = { cn: `relay test signing CA ${label}`, keys: caKeys };
  const cert = issue({
    cn: self.cn,
    subject: caKeys,
    issuer: parent ?? self,
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true },
    ],
  });
  return {
    cert,
    issueCa: (child) => makeSigningCa(child, self),
    issue(name, opts = {}) {
      const leafKeys = keys();
      const expired = opts.expiredDaysAgo;
      const leaf = issue({
        cn: name,
        subject: leafKeys,
        issuer: self,
        extensions: [
          { name: 'keyUsage', digitalSignature: true },
          { name: 'subjectAltName', altNames: [{ type: 2, value: name }] },
        ],
        ...(expired !== undefined ? { fromMs: -(expired + 1) * DAY, days: 1 } : {}),
      });
      return { cert: leaf, key: keyPem(leafKeys) };
    },
  };
}
