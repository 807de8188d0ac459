// npm run bench (part): the cost of inbound verification per family, in process, on
// a 1,008-byte JSON body like bench/gateway.js: for a representative preset of each family and
// signature layout, µs per verified request and the share of one accepted request's time at the
// gateway's recorded rate (docs/benchmarks.md, 1,851 accepted/s). CPU only: no I/O is involved.
// Writes bench-results/verify-families.json.
'use strict';
const { createHmac, generateKeyPairSync, sign } = require('node:crypto');
const { validateInboundAuth } = require('@relay/endpoints');
const { verifyInbound } = require('../services/ingest-gateway/dist/domain/auth/verify');
const { writeResults } = require('./lib');

const RUN_MS = Number(process.env.BENCH_VERIFY_MS || 1000);
const GATEWAY_ACCEPTED_PER_S = 1851;
const URL_ = 'https://relay.example/relay/ep_1';
const body = Buffer.from(
  JSON.stringify({ event: 'order.created', id: 'x'.repeat(16), data: { note: 'y'.repeat(940) } }),
);
const form = Buffer.from('To=%2B15551234567&From=%2B15557654321&Body=hello+world');
/** @typedef {(alg: string, key: import('node:crypto').BinaryLike, ...parts: (string | Buffer)[]) => string} Mac */
/** @type {Mac} */
const hex = (alg, key, ...parts) => parts.reduce((h, p) => h.update(p), createHmac(alg, key)).digest('hex');
/** @type {Mac} */
const b64 = (alg, key, ...parts) => parts.reduce((h, p) => h.update(p), createHmac(alg, key)).digest('base64');

/**
 * One case per family: name, preset, secret, signature headers, and the body when not the JSON one.
 * @param {Date} now
 * @returns {[string, string, string, Record<string, string>, Buffer?][]}
 */
function cases(now) {
  const t = String(Math.floor(now.getTime() / 1000));
  const ed = generateKeyPairSync('ed25519');
  const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const whsec = `whsec_${Buffer.from('bench-standard-webhooks-key-32b!').toString('base64')}`;
  const twilioData = `${URL_}BodyhelloworldFrom+15557654321To+15551234567`.replace('helloworld', 'hello world');
  return [
    [
      'hmac: body, hex, prefix (github)',
      'github',
      's',
      { 'x-hub-signature-256': `sha256=${hex('sha256', 's', body)}` },
    ],
    [
      'hmac: pairs t=,v1= (stripe)',
      'stripe',
      's',
      { 'stripe-signature': `t=${t},v1=${hex('sha256', 's', `${t}.`, body)}` },
    ],
    [
      'hmac: whsec key, id+timestamp, list (standard_webhooks)',
      'standard_webhooks',
      whsec,
      {
        'webhook-id': 'msg_1',
        'webhook-timestamp': t,
        'webhook-signature': `v1,${b64('sha256', Buffer.from(whsec.slice(6), 'base64'), `msg_1.${t}.`, body)}`,
      },
    ],
    [
      'hmac: URL + body, port variants (square)',
      'square',
      's',
      { 'x-square-hmacsha256-signature': b64('sha256', 's', URL_, body) },
    ],
    [
      'hmac: ISO timestamp (zendesk)',
      'zendesk',
      's',
      {
        'x-zendesk-webhook-signature-timestamp': now.toISOString(),
        'x-zendesk-webhook-signature': b64('sha256', 's', now.toISOString(), body),
      },
    ],
    [
      'url_form: URL + sorted form (twilio)',
      'twilio',
      's',
      { 'x-twilio-signature': b64('sha1', 's', twilioData) },
      form,
    ],
    [
      'public_key: Ed25519 (discord)',
      'discord',
      Buffer.from(ed.publicKey.export({ format: 'jwk' }).x ?? '', 'base64url').toString('hex'),
      {
        'x-signature-timestamp': t,
        'x-signature-ed25519': sign(null, Buffer.concat([Buffer.from(t), body]), ed.privateKey).toString('hex'),
      },
    ],
    [
      'public_key: ECDSA P-256 (sendgrid)',
      'sendgrid',
      ec.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
      {
        'x-twilio-email-event-webhook-timestamp': t,
        'x-twilio-email-event-webhook-signature': sign(
          'sha256',
          Buffer.concat([Buffer.from(t), body]),
          ec.privateKey,
        ).toString('base64'),
      },
    ],
    [
      'public_key: RSA-2048 (wise)',
      'wise',
      rsa.publicKey.export({ format: 'pem', type: 'spki' }).toString().trim(),
      { 'x-signature-sha256': sign('sha256', body, rsa.privateKey).toString('base64') },
    ],
    ['token: header (gitlab)', 'gitlab', 'glpat-token-value', { 'x-gitlab-token': 'glpat-token-value' }],
  ];
}

/**
 * µs per verification of `req`, over RUN_MS.
 * @param {Parameters<typeof verifyInbound>[0]} setting
 * @param {Parameters<typeof verifyInbound>[1]} req
 * @param {Date} now
 */
function measure(setting, req, now) {
  // warm up, then count verifications within RUN_MS
  for (let i = 0; i < 200; i++) verifyInbound(setting, req, now);
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(RUN_MS) * 1_000_000n;
  let n = 0;
  let end = start;
  while (end < deadline) {
    for (let i = 0; i < 50; i++)
      if (!verifyInbound(setting, req, now).ok) throw new Error('a bench request failed to verify');
    n += 50;
    end = process.hrtime.bigint();
  }
  return Number(end - start) / 1000 / n;
}

const now = new Date();
const results = cases(now).map(([name, preset, secret, headers, raw]) => {
  const checked = validateInboundAuth({ type: 'HMAC', preset, secrets: [secret] });
  if (!checked.ok) throw new Error(`${preset}: ${JSON.stringify(checked.errors)}`);
  const req = {
    method: 'POST',
    url: URL_,
    headers: { 'content-type': raw ? 'application/x-www-form-urlencoded' : 'application/json', ...headers },
    rawBody: raw ?? body,
  };
  const usPerRequest = measure(checked.value, req, now);
  const budgetUs = 1e6 / GATEWAY_ACCEPTED_PER_S;
  return {
    family: name,
    preset,
    us_per_request: Math.round(usPerRequest * 10) / 10,
    share_of_accepted_request: Math.round((usPerRequest / budgetUs) * 1000) / 10,
  };
});

for (const r of results)
  console.log(
    `${r.family.padEnd(58)} ${String(r.us_per_request).padStart(8)} µs  ${String(r.share_of_accepted_request).padStart(5)} % of one accepted request at ${GATEWAY_ACCEPTED_PER_S}/s`,
  );
writeResults('verify-families', {
  at: new Date().toISOString(),
  node: process.version,
  run_ms: RUN_MS,
  body_bytes: body.length,
  results,
});
