// A local mail catcher for `npm start`: an SMTP server on loopback that the demo's email
// targets send to, keeping every message as a .eml file and listing them on a tiny web page.
// STARTTLS with a certificate made here (written beside the mail, for the deliverer's CA) and
// AUTH with a local user, so the demo uses the same TLS-required default as production.
'use strict';
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { SMTPServer } = require('smtp-server');
const { simpleParser } = require('mailparser');
const { generate } = require('selfsigned');

const smtpPort = Number(process.env.MAIL_CATCHER_SMTP_PORT || 2525);
const webPort = Number(process.env.MAIL_CATCHER_WEB_PORT || 8098);
const dir = path.resolve(process.env.MAIL_CATCHER_DIR || '.infra/mail');
const user = process.env.MAIL_CATCHER_USER || 'relay';
const pass = process.env.MAIL_CATCHER_PASS || 'relay-local';
// at most this many messages are kept; the oldest files are removed past it
const KEEP = 500;

fs.mkdirSync(dir, { recursive: true });
const pems = generate([{ name: 'commonName', value: 'localhost' }], {
  keySize: 2048,
  days: 30,
  algorithm: 'sha256',
  extensions: [
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
      ],
    },
  ],
});
fs.writeFileSync(path.join(dir, 'catcher-ca.pem'), pems.cert);

/** @type {Record<string, string>} */
const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (/** @type {unknown} */ s) => String(s ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
const messages = () =>
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .reverse();

function prune() {
  for (const old of messages().slice(KEEP)) fs.rmSync(path.join(dir, old), { force: true });
}

const smtp = new SMTPServer({
  key: pems.private,
  cert: pems.cert,
  authMethods: ['PLAIN', 'LOGIN'],
  allowInsecureAuth: false,
  logger: false,
  size: 25 * 1024 * 1024,
  onAuth(auth, _session, cb) {
    if (auth.username === user && auth.password === pass) return cb(null, { user });
    return cb(Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 }));
  },
  onData(stream, session, cb) {
    /** @type {Buffer[]} */
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${session.id}.eml`;
      fs.writeFileSync(path.join(dir, name), Buffer.concat(chunks));
      prune();
      console.log(
        `mail-catcher: ${name} from ${session.envelope.mailFrom && session.envelope.mailFrom.address} to ${session.envelope.rcptTo.map((r) => r.address).join(', ')}`,
      );
      cb(null, 'OK: caught');
    });
  },
});
smtp.on('error', (err) => console.error(`mail-catcher: ${err.message}`));
smtp.listen(smtpPort, '127.0.0.1', () =>
  console.log(`mail-catcher: SMTP on 127.0.0.1:${smtpPort} (STARTTLS, AUTH ${user})`),
);

http
  .createServer(async (req, res) => {
    const file = decodeURIComponent((req.url || '/').slice(1));
    if (file === '') {
      const rows = [];
      for (const f of messages().slice(0, 100)) {
        const parsed = await simpleParser(fs.readFileSync(path.join(dir, f)));
        rows.push(
          `<tr><td>${escape(parsed.date && parsed.date.toISOString())}</td><td>${escape(
            [parsed.to ?? []]
              .flat()
              .map((a) => a.text)
              .join(', '),
          )}</td><td><a href="/${encodeURIComponent(f)}">${escape(parsed.subject)}</a></td></tr>`,
        );
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(
        `<!doctype html><meta charset="utf-8"><title>Relay mail catcher</title><h1>Caught mail</h1><p>Files in ${escape(dir)}</p><table>${rows.join('')}</table>`,
      );
    }
    if (!messages().includes(file)) {
      res.writeHead(404);
      return res.end();
    }
    // the raw message as text: never rendered as HTML, so a caught message cannot script this page
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    return res.end(fs.readFileSync(path.join(dir, file)));
  })
  .listen(webPort, '127.0.0.1', () =>
    console.log(`mail-catcher: messages at http://127.0.0.1:${webPort}/ and in ${dir}`),
  );
