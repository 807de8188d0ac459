import type { Validation } from '@relay/contracts';
import type * as NatsTransport from '@nats-io/transport-node';
import type { CheckContext, Fields, KindDescription } from '../../describe/field';
import { checkDescribed } from '../../describe/validate';
import type { NatsAuth } from '../../transports/nats';
import { checkServerUrl } from '../server-url';
import { onFirstUse } from '../../transports/on-first-use';

/** loaded when a seed or creds file is first checked (transports/on-first-use.ts) */
const natsTransport = onFirstUse(() => require('@nats-io/transport-node') as typeof NatsTransport);
/** A NATS JetStream target's settings (docs/targets-queues.md "NATS JetStream"). */
export interface NatsJetStreamConfig {
  /** `nats://` or `tls://` URLs without credentials, tried in order */
  servers: string[];
  /** a template (kinds/template.ts `{{path}}`) rendered against the payload */
  subject: string;
  /** its secret (password, token, seed) sealed at rest */
  auth: NatsAuth;
}

export const MAX_SERVERS = 8;
/** Relay's bound on a rendered subject; the server's own is its 4 KB protocol line (max_control_line). */
export const MAX_SUBJECT_BYTES = 1024;
const MAX_SECRET = 4096;
/** a user JWT with its permissions and the seed, as nsc writes them: a few kilobytes at most */
const MAX_CREDS = 16_384;
/** `{{path}}`, as kinds/template.ts reads it */
const TAG = /\{\{[^{}]*\}\}/g;

/**
 * Why `subject` cannot be published to, or null (NATS subject rules: tokens split by `.`, none
 * empty, no whitespace; `*` and `>` are wildcards, which a publish may not use). A first token
 * starting with `$` is the server's own (`$JS.API.…` would be a JetStream API call made with the
 * target's credentials). The message never echoes the subject, which may hold payload values.
 */
export function subjectProblem(subject: string): string | null {
  if (subject === '') return 'is required';
  if (/\s/.test(subject)) return 'must not contain spaces or line breaks';
  if (/[*>]/.test(subject)) return 'must not contain the wildcards * or >';
  if (subject.split('.').includes('')) return 'must not have an empty token (a leading, trailing or doubled dot)';
  if (subject.startsWith('$')) return 'must not start with $ (the server’s own subjects)';
  if (Buffer.byteLength(subject) > MAX_SUBJECT_BYTES) return `must be at most ${MAX_SUBJECT_BYTES} bytes`;
  return null;
}

/** The template's own text must make a valid subject whatever its tags render to (each stands for one non-empty piece). */
function checkSubject(value: string, ctx: CheckContext): undefined {
  const problem = subjectProblem(value.replace(TAG, 'x'));
  if (problem) ctx.fail(`subject ${problem}`);
  return undefined;
}

/** One server: a `nats://` or `tls://` host and port, no path, no credentials (they go in `auth`). */
function checkServer(value: string, ctx: CheckContext): undefined {
  let problems = 0;
  checkServerUrl(
    value,
    { ...ctx, fail: (m, at) => (problems++, ctx.fail(m, at)) },
    {
      schemes: ['nats:', 'tls:'],
      name: 'servers',
      notAUrl: 'servers must be nats:// or tls:// URLs, e.g. tls://nats.example.com:4222',
      pathProblem: (pathname) => (pathname === '' || pathname === '/' ? null : 'servers must not have a path'),
    },
  );
  if (problems === 0) {
    const url = new URL(value);
    if (url.username !== '' || url.password !== '')
      ctx.fail('servers must not hold credentials: set them in auth, where they are sealed');
  }
  return undefined;
}

/** One scheme for all: TLS is a setting of the connection, not of one server. */
function checkServers(list: string[], ctx: CheckContext): undefined {
  if (list.length === 0) ctx.fail('servers needs at least one URL');
  else if (new Set(list.map((s) => s.slice(0, s.indexOf(':')))).size > 1)
    ctx.fail('servers must all be nats:// or all tls://');
  return undefined;
}

/** A user NKey seed (`SU…`, base32 with a checksum), checked by decoding it; never echoed. */
function checkSeed(value: string, ctx: CheckContext): undefined {
  try {
    if (!value.startsWith('SU')) throw new Error('not a user seed');
    natsTransport().nkeys.fromSeed(new TextEncoder().encode(value));
  } catch {
    ctx.fail('seed must be a user NKey seed (starts with SU, as nsc or nk -gen user prints it)');
  }
  return undefined;
}

/**
 * A `.creds` file: the user JWT and the user's NKey seed between their `-----BEGIN …-----` /
 * `------END …------` lines, as nsc writes it. Checked by reading both as nats.js does and signing
 * with the seed; stored with `\n` line ends and a final line break, which nats.js's reader needs.
 */
function checkCreds(value: string, ctx: CheckContext): string | undefined {
  const text = `${value.replace(/\r\n/g, '\n').trim()}\n`;
  try {
    const { jwt, nkey } = natsTransport().credsAuthenticator(new TextEncoder().encode(text))('relay') as {
      jwt: string;
      nkey: string;
    };
    if (jwt.split('.').length !== 3 || !nkey.startsWith('U')) throw new Error('not a user');
  } catch {
    ctx.fail('creds must be the content of a user .creds file (a user JWT and its NKey seed, as nsc writes it)');
    return undefined;
  }
  return text;
}

const secret = (
  label: string,
  name: string,
  check?: (v: string, ctx: CheckContext) => string | undefined,
  maxLength = MAX_SECRET,
) => ({
  type: 'string' as const,
  label,
  required: true,
  credential: true,
  trim: true,
  minLength: 1,
  maxLength,
  message: `${name} is required (at most ${maxLength} characters)`,
  ...(check ? { check } : {}),
});

const authVariants: Array<{ value: string; label: string; fields: Fields }> = [
  { value: 'none', label: 'None', fields: {} },
  {
    value: 'user_password',
    label: 'User and password',
    fields: {
      user: {
        type: 'string',
        label: 'User',
        required: true,
        minLength: 1,
        maxLength: 256,
        message: 'user is required (at most 256 characters)',
      },
      password: secret('Password', 'password'),
    },
  },
  { value: 'token', label: 'Token', fields: { token: secret('Token', 'token') } },
  { value: 'nkey', label: 'NKey', fields: { seed: secret('NKey seed', 'seed', checkSeed) } },
  {
    value: 'creds',
    label: 'Credentials file (JWT)',
    fields: { creds: { ...secret('Credentials (.creds file)', 'creds', checkCreds, MAX_CREDS), multiline: true } },
  },
];

/** Described once (docs/adding-a-target-kind.md). */
export const natsJetStreamDescription: KindDescription = {
  label: 'NATS JetStream',
  help: 'Each delivery published with JetStream to a subject a stream captures, acknowledged by the stream, its Nats-Msg-Id the delivery id; docs/targets-queues.md.',
  fields: {
    servers: {
      type: 'list',
      label: `Servers (at most ${MAX_SERVERS})`,
      required: true,
      requiredMessage: 'servers is required: at least one nats:// or tls:// URL',
      maxItems: MAX_SERVERS,
      maxItemsMessage: 'at most {max} servers (got {got})',
      message: 'servers must be a list of nats:// or tls:// URLs',
      example: ['tls://nats.example.com:4222'],
      help: 'tried in order; tls:// verifies the certificate against the host name; no credentials here',
      items: {
        type: 'string',
        label: 'Server URL',
        required: true,
        trim: true,
        maxLength: 2048,
        message: 'servers must be nats:// or tls:// URLs',
        check: checkServer,
      },
      check: checkServers,
    },
    subject: {
      type: 'string',
      label: 'Subject template',
      required: true,
      trim: true,
      maxLength: MAX_SUBJECT_BYTES,
      example: 'webhooks.orders.{{type}}',
      help: '{{path.to.field}} over the payload; a stream must capture it; no * or >, spaces or empty tokens',
      check: checkSubject,
    },
    auth: {
      type: 'variant',
      label: 'Authentication',
      tag: 'type',
      default: { type: 'none' },
      variants: authVariants,
    },
  },
};

export function validateNatsJetStreamConfig(input: unknown): Validation<NatsJetStreamConfig> {
  return checkDescribed(natsJetStreamDescription, input) as Validation<NatsJetStreamConfig>;
}
