import { PRESET_NAMES, PRESET_SPECS } from './catalog';
import type { PresetOracle, PresetSpec, SignedPart } from './spec';

const PUBLIC_KEY_NAMES = {
  ed25519: 'Ed25519',
  ecdsa_p256_sha256: 'ECDSA P-256/SHA-256',
  rsa_sha256: 'RSA PKCS#1 v1.5/SHA-256',
} as const;

const CERTIFICATE_SCHEMES = {
  aws_sns: 'RSA SHA1 (v1) or SHA256 (v2) over the message fields, certificate from `SigningCertURL`',
  paypal: 'RSA SHA256 over id + "|" + time + "|" + webhook id + "|" + CRC32(body), certificate from `paypal-cert-url`',
} as const;

function part(p: SignedPart): string {
  return typeof p === 'string' ? p : JSON.stringify(p.text);
}

function scheme(spec: PresetSpec): string {
  const s = spec.scheme;
  switch (s.family) {
    case 'hmac':
      return `HMAC-${s.algorithm.toUpperCase()}(${s.key === 'text' ? 'secret' : `${s.key} key`}, ${s.signed.map(part).join(' + ')}), ${s.encoding}`;
    case 'public_key':
      return `${PUBLIC_KEY_NAMES[s.algorithm]}(${s.signed.map(part).join(' + ')}), ${s.encoding}`;
    case 'url_form':
      return `HMAC-${s.algorithm.toUpperCase()}(secret, url + sorted form params), ${s.encoding}`;
    case 'certificate':
      return CERTIFICATE_SCHEMES[s.provider];
    case 'token':
      return s.bodyArrayField === undefined
        ? 'shared token, compared in constant time'
        : `shared token in every \`${s.bodyArrayField.array}[].${s.bodyArrayField.field}\`, compared in constant time`;
  }
}

function signatureHeader(spec: PresetSpec): string {
  if (spec.signature === undefined)
    return spec.scheme.family === 'certificate' ? 'none (signature in the body)' : 'none (token in the body)';
  const f = spec.signature.format;
  const name = `\`${spec.signature.header}\``;
  if (f.kind === 'plain') return f.prefix === undefined ? name : `${name} \`${f.prefix}…\``;
  if (f.kind === 'timestamp_then_signatures') return `${name} \`<timestamp>${f.separator}<sig>[${f.separator}<sig>]\``;
  if (f.kind === 'list') return `${name} \`${f.prefix}…\` split on ${JSON.stringify(f.separator)}`;
  const ts = f.timestampKey === undefined ? '' : `${f.timestampKey}=…${f.separator}`;
  return `${name} \`${ts}${f.signatureKey}=…\``;
}

function window(spec: PresetSpec): string {
  const t = spec.timestamp;
  if (t === undefined) return 'none';
  const where = t.header === undefined ? 'in signature header' : `\`${t.header}\``;
  const span = t.toleranceSeconds === null ? 'off unless set' : `${t.toleranceSeconds} s`;
  return `${span} (${where}, ${t.unit})`;
}

function deliveryId(spec: PresetSpec): string {
  if (spec.id === undefined) return '—';
  return 'header' in spec.id ? `\`${spec.id.header}\`` : `body \`${spec.id.bodyPath}\``;
}

function oracle(o: PresetOracle): string {
  if (o.kind === 'sdk') return `SDK \`${o.name}\``;
  if (o.kind === 'vector') return `published vector (${o.source})`;
  return 'documented signer';
}

/**
 * The preset table of docs/inbound-auth.md, generated from the catalog so the docs cannot drift
 * (`npm run docs` writes it; `npm run lint` fails while the committed table differs).
 */
export function presetTable(): string {
  const rows = PRESET_NAMES.map((name) => {
    const spec = PRESET_SPECS[name];
    const cells = [
      `\`${name}\``,
      `[${spec.label}](${spec.docs})`,
      signatureHeader(spec),
      scheme(spec),
      window(spec),
      deliveryId(spec),
      spec.handshake === undefined ? '—' : `\`${spec.handshake}\``,
      oracle(spec.oracle),
    ];
    return `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
  });
  return [
    `${PRESET_NAMES.length} named presets.`,
    '',
    '| preset | provider (docs) | signature header | signed | replay window | delivery id | handshake | test oracle |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
