import { API_KEY_ROLES } from '../domain/roles';
import { dateTime, errors, json, list, nullable, object, oneOfValues, op, pathParam, ref, str } from './kit';
import type { Schema } from './kit';
import { errorBody } from './components';

/*
 * People of an account (docs/members.md): members who sign in to the dashboard with the
 * account's OpenID Connect provider, the invitations that make them members, and that provider.
 */

const role = oneOfValues(API_KEY_ROLES, 'viewer < editor < admin < owner (docs/management-api.md "Roles")');
const member: Record<string, Schema> = {
  id: str({ description: '`mem_…`: the actor of their changes in the audit history' }),
  email: str({ description: 'the address the invitation went to' }),
  name: nullable(str({ description: "the ID token's `name` when they joined" })),
  role,
  issuer: str({ description: 'the identity provider that vouches for them' }),
  subject: str({ description: 'their `sub` at that provider' }),
  invited_by: str({ description: 'the actor that invited them' }),
  created_at: dateTime('when they accepted the invitation'),
};
const invitation: Record<string, Schema> = {
  id: str({ description: '`inv_…`: what revoking names' }),
  email: str(),
  role,
  created_by: str({ description: 'the actor that invited' }),
  created_at: dateTime(),
  expires_at: dateTime('the link works until then, once'),
};
const provider: Record<string, Schema> = {
  issuer: str({ description: 'the OpenID provider, exactly as its discovery document names itself' }),
  client_id: str(),
  client_secret: object({ set: { type: 'boolean', const: true } }, ['set'], {
    description: 'never answered: sealed at rest with SECRETS_KEYS',
  }),
  redirect_uri: str({
    description: 'the callback to register at the provider: `{DASHBOARD_URL}session/oidc/callback`',
  }),
  updated_by: str(),
  updated_at: dateTime(),
};

export const memberSchemas: Record<string, Schema> = {
  Member: object(member, Object.keys(member)),
  MemberList: object({ data: list(ref('Member')) }, ['data']),
  InvitationCreate: object(
    {
      email: str({
        maxLength: 254,
        pattern: '^[^@\\s]+@[^@\\s]+$',
        description: 'where the invitation goes (through the operator’s mail relay)',
      }),
      role,
    },
    ['email', 'role'],
  ),
  Invitation: object(invitation, Object.keys(invitation)),
  InvitationList: object({ data: list(ref('Invitation')) }, ['data']),
  IdentityProviderSet: object(
    {
      issuer: str({
        minLength: 1,
        maxLength: 500,
        description: 'https, or http on loopback (127.0.0.1, localhost, [::1]) for a provider on this machine',
      }),
      client_id: str({ minLength: 1, maxLength: 500 }),
      client_secret: str({ minLength: 1, maxLength: 2000, description: 'sealed at rest; never answered' }),
    },
    ['issuer', 'client_id', 'client_secret'],
  ),
  IdentityProvider: object(provider, Object.keys(provider)),
};

const conflict = (codes: string[], description: string): Schema =>
  json(errorBody(codes, description), codes.map((c) => `\`${c}\``).join(', ') + ': ' + description);

export const memberPaths: Record<string, Schema> = {
  '/v1/account/identity-provider': {
    get: op({
      operationId: 'getIdentityProvider',
      summary: "The account's identity provider",
      description:
        'Issuer and client id; the client secret only as set. `redirect_uri` is what to register at the provider.',
      tags: ['Members'],
      role: 'admin',
      responses: { '200': json(ref('IdentityProvider'), 'The provider.'), ...errors('NotFound') },
    }),
    put: op({
      operationId: 'setIdentityProvider',
      summary: "Set the account's identity provider",
      description:
        'The OpenID Connect provider members sign in with (authorization code with PKCE). Its discovery document is read now: an issuer that does not answer one naming itself is a 400 on `issuer`. Audited (`identity_provider_set`; the secret only as changed).',
      tags: ['Members'],
      role: 'owner',
      requestBody: { required: true, content: { 'application/json': { schema: ref('IdentityProviderSet') } } },
      responses: { '200': json(ref('IdentityProvider'), 'The provider as saved.') },
    }),
    delete: op({
      operationId: 'removeIdentityProvider',
      summary: "Remove the account's identity provider",
      description:
        'Members can no longer sign in; their sessions already open go on until they end. Audited (`identity_provider_removed`).',
      tags: ['Members'],
      role: 'owner',
      responses: { '204': { description: 'Removed.' }, ...errors('NotFound') },
    }),
  },
  '/v1/members': {
    get: op({
      operationId: 'listMembers',
      summary: 'List members',
      description: "The account's members, oldest first.",
      tags: ['Members'],
      role: 'admin',
      responses: { '200': json(ref('MemberList'), 'Every member.') },
    }),
  },
  '/v1/members/{memberId}': {
    delete: op({
      operationId: 'removeMember',
      summary: 'Remove a member',
      description:
        'Their dashboard sessions are refused from the next request on, by every management-api process. An admin removes members below owner; an owner anyone. Audited (`member_removed`).',
      tags: ['Members'],
      role: 'admin',
      parameters: [pathParam('memberId', 'the member id (`mem_…`)')],
      responses: { '204': { description: 'Removed.' }, ...errors('NotFound') },
    }),
  },
  '/v1/members/invitations': {
    get: op({
      operationId: 'listInvitations',
      summary: 'List open invitations',
      description: 'Invitations not yet accepted, revoked or expired, oldest first. Never their links.',
      tags: ['Members'],
      role: 'admin',
      responses: { '200': json(ref('InvitationList'), 'Every open invitation.') },
    }),
    post: op({
      operationId: 'createInvitation',
      summary: 'Invite a member',
      description:
        'Mails a single-use link (valid INVITATION_TTL_HOURS) through the operator’s mail relay; only its digest is stored. Signing in through it with the account’s identity provider makes that identity a member with `role`. An admin invites below owner; an owner any role. Audited (`member_invited`).',
      tags: ['Members'],
      role: 'admin',
      requestBody: { required: true, content: { 'application/json': { schema: ref('InvitationCreate') } } },
      responses: {
        '201': json(ref('Invitation'), 'Sent.'),
        '409': conflict(
          ['identity_provider_unset', 'too_many_invitations'],
          'the account has no identity provider, or 50 open invitations.',
        ),
        '502': conflict(['mail_not_sent'], 'the mail relay did not take it; nothing was kept.'),
        '503': conflict(['mail_unavailable'], 'no mail relay is configured (SMTP_HOST).'),
      },
    }),
  },
  '/v1/members/invitations/{invitationId}': {
    delete: op({
      operationId: 'revokeInvitation',
      summary: 'Revoke an invitation',
      description: 'Its link stops working at once. Audited (`invitation_revoked`).',
      tags: ['Members'],
      role: 'admin',
      parameters: [pathParam('invitationId', 'the invitation id (`inv_…`)')],
      responses: { '204': { description: 'Revoked.' }, ...errors('NotFound') },
    }),
  },
};
