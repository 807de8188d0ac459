import { createHmac } from 'node:crypto';
import { must } from '@relay/client';
import type { EndpointCreate, InboundAuthInput } from '@relay/client';
import type { Stack } from '../stack';

/**
 * The endpoints hostile requests are aimed at: every payload format, and the inbound
 * authentication modes NONE, BASIC, BEARER, API_KEY and HMAC (GitHub, Stripe), created through
 * the management API on the real store like any user's. Requests carry valid credentials most of
 * the time, so hostile payloads get past authentication to the parsers.
 *
 * Endpoints marked `target` have a webhook target, so accepted requests publish delivery
 * messages (the Content-Type and payload travel in them); no deliverer runs, the messages wait
 * in the namespace's queue and go with it.
 */
type Auth =
  | { type: 'NONE' }
  | { type: 'BASIC'; username: string; password: string }
  | { type: 'BEARER'; token: string }
  | { type: 'API_KEY'; header: string; key: string }
  | { type: 'HMAC'; preset: 'github' | 'stripe'; secret: string };

interface Role {
  settings: Omit<EndpointCreate, 'name' | 'inbound_auth'>;
  auth: Auth;
  target?: boolean;
}

const fast = { rate_limit_per_minute: 100000 };

export const ROLES = {
  json_open: {
    settings: { payload_format: 'json', methods: ['POST', 'PUT', 'PATCH'] },
    auth: { type: 'NONE' },
    target: true,
  },
  json_github: {
    settings: { payload_format: 'json' },
    auth: { type: 'HMAC', preset: 'github', secret: 'hostile-github-secret-0001' },
  },
  json_stripe: {
    settings: { payload_format: 'json' },
    auth: { type: 'HMAC', preset: 'stripe', secret: 'whsec_hostile_stripe_0001' },
  },
  json_bearer: { settings: { payload_format: 'json' }, auth: { type: 'BEARER', token: 'hostile-bearer-token-0001' } },
  // with TRUST_PROXY_HOPS=1 the last X-Forwarded-For entry is the source address
  json_ipallow: {
    settings: { payload_format: 'json', ip_access: { allow: ['127.0.0.1'], deny: [] } },
    auth: { type: 'NONE' },
  },
  form_open: { settings: { payload_format: 'form' }, auth: { type: 'NONE' }, target: true },
  form_basic: {
    settings: { payload_format: 'form' },
    auth: { type: 'BASIC', username: 'hostile', password: 'pa:ss-0001' },
  },
  xml_open: { settings: { payload_format: 'xml' }, auth: { type: 'NONE' }, target: true },
  xml_apikey: {
    settings: { payload_format: 'xml' },
    auth: { type: 'API_KEY', header: 'X-API-Key', key: 'hostile-api-key-0001' },
  },
  text_open: { settings: { payload_format: 'text', methods: ['POST', 'PUT'] }, auth: { type: 'NONE' }, target: true },
  query_open: {
    settings: { payload_format: 'query', methods: ['GET', 'HEAD', 'POST'] },
    auth: { type: 'NONE' },
    target: true,
  },
  b64_open: {
    settings: { payload_format: 'query_base64_json', query_param_name: 'd', methods: ['GET', 'POST'] },
    auth: { type: 'NONE' },
    target: true,
  },
  b64_bearer: {
    settings: { payload_format: 'query_base64_json', query_param_name: 'payload', methods: ['GET', 'POST'] },
    auth: { type: 'BEARER', token: 'hostile-bearer-token-0002' },
  },
  none_open: {
    settings: { payload_format: 'none', methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] },
    auth: { type: 'NONE' },
  },
  // the prototype-pollution canary: `{}` passes only if Object.prototype.hostile_polluted exists
  json_canary: {
    settings: { payload_format: 'json', field_rules: [{ path: 'hostile_polluted', required: true }] },
    auth: { type: 'NONE' },
  },
} satisfies Record<string, Role>;

export type RoleName = keyof typeof ROLES;

export interface Roster {
  id: Record<RoleName, string>;
  format(role: RoleName): string;
  /** header lines that authenticate `body` for the role; `valid: false` gives missing or wrong ones */
  credentials(role: RoleName, body: Buffer, valid: boolean, variant: number): string[];
  authenticated(role: RoleName): boolean;
}

export async function createRoster(stack: Stack): Promise<Roster> {
  const id = {} as Record<RoleName, string>;
  for (const [name, role] of Object.entries(ROLES) as Array<[RoleName, Role]>) {
    const created = await must(
      stack.client.POST('/v1/endpoints', {
        body: { name: `hostile ${name}`, ...fast, ...role.settings, inbound_auth: storedAuth(role.auth) },
      }),
    );
    id[name] = created.id;
    if (role.target) {
      // port 9 (discard): nothing delivers in this suite, the address only has to be valid
      const target = {
        kind: 'webhook',
        name: 'nowhere',
        config: { url: 'http://127.0.0.1:9/hook', enforce_https: false },
      } as const;
      await must(
        stack.client.POST('/v1/endpoints/{endpointId}/targets', {
          params: { path: { endpointId: id[name] } },
          body: target,
        }),
      );
    }
  }
  return {
    id,
    format: (role) => (ROLES[role] as Role).settings.payload_format as string,
    credentials: (role, body, valid, variant) => credentialLines((ROLES[role] as Role).auth, body, valid, variant),
    authenticated: (role) => (ROLES[role] as Role).auth.type !== 'NONE',
  };
}

function storedAuth(auth: Auth): InboundAuthInput {
  switch (auth.type) {
    case 'NONE':
      return { type: 'NONE' };
    case 'BASIC':
      return { type: 'BASIC', credentials: [{ username: auth.username, password: auth.password }] };
    case 'BEARER':
      return { type: 'BEARER', tokens: [auth.token] };
    case 'API_KEY':
      return { type: 'API_KEY', header: auth.header, keys: [auth.key] };
    case 'HMAC':
      return { type: 'HMAC', preset: auth.preset, secrets: [auth.secret] };
  }
}

const hmacHex = (secret: string, data: Buffer | string): string =>
  createHmac('sha256', secret).update(data).digest('hex');

function credentialLines(auth: Auth, body: Buffer, valid: boolean, variant: number): string[] {
  if (auth.type === 'NONE') return [];
  // invalid: every other time the credential is missing, otherwise it is wrong
  if (!valid && variant % 2 === 0) return [];
  const garble = (s: string): string => (valid ? s : `${s.slice(0, -1)}${s.endsWith('0') ? '1' : '0'}`);
  switch (auth.type) {
    case 'BASIC':
      return [`Authorization: Basic ${Buffer.from(`${auth.username}:${garble(auth.password)}`).toString('base64')}`];
    case 'BEARER':
      return [`Authorization: Bearer ${garble(auth.token)}`];
    case 'API_KEY':
      return [`${auth.header}: ${garble(auth.key)}`];
    case 'HMAC': {
      if (auth.preset === 'github') return [`X-Hub-Signature-256: sha256=${garble(hmacHex(auth.secret, body))}`];
      const t = Math.floor(Date.now() / 1000);
      const signed = Buffer.concat([Buffer.from(`${t}.`), body]);
      return [`Stripe-Signature: t=${t},v1=${garble(hmacHex(auth.secret, signed))}`];
    }
  }
}
