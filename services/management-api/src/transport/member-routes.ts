import { createHash, randomBytes } from 'node:crypto';
import { Router } from 'express';
import type { Request, Response } from 'express';
import { newId } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import { findAccount } from '@relay/store';
import type { Store } from '@relay/store';
import type { InvitationMailer } from '../adapters/invitation-mail';
import type { IdentityProviderDoc, InvitationDoc, MemberDoc, MemberStore } from '../adapters/member-store';
import type { RelyingParty } from '../adapters/oidc-relying-party';
import { ProviderError } from '../adapters/oidc-relying-party';
import type { SignInAttempts } from '../adapters/sign-in-attempts';
import { mayManage } from '../domain/roles';
import type { ApiKeyRole } from '../domain/roles';
import type { Sealer } from '../domain/secret-sealing';
import { audit } from './audit-trail';
import { accountOf, actorOf, roleOf } from './auth';
import { ApiError, invalid, notFound } from './errors';
import { operation } from './operation';

/** What members, invitations and sign-in with an identity provider need (docs/members.md). */
export interface MemberDeps {
  members: MemberStore;
  relyingParty: RelyingParty;
  attempts: SignInAttempts;
  /** absent: no mail relay (SMTP_HOST empty), so no invitation can be sent */
  mailer?: InvitationMailer;
  /** the dashboard's address as people reach it (DASHBOARD_URL): the callback and the invitation links live under it */
  dashboardUrl: string;
  invitationTtlMs: number;
}

export interface MemberRouteDeps extends MemberDeps {
  store: Store;
  secrets: Sealer;
  logger: Logger;
}

/** Open invitations an account may have at once; expired ones are dropped before counting. */
export const MAX_OPEN_INVITATIONS = 50;

export const digestOf = (token: string): string => createHash('sha256').update(token).digest('hex');
export const callbackUrlOf = (dashboardUrl: string): string => new URL('session/oidc/callback', dashboardUrl).href;

export function memberView(m: MemberDoc): Record<string, unknown> {
  return {
    id: m._id,
    email: m.email,
    name: m.name,
    role: m.role,
    issuer: m.issuer,
    subject: m.subject,
    invited_by: m.invited_by,
    created_at: m.created_at,
  };
}

export function invitationView(i: InvitationDoc): Record<string, unknown> {
  return {
    id: i._id,
    email: i.email,
    role: i.role,
    created_by: i.created_by,
    created_at: i.created_at,
    expires_at: i.expires_at,
  };
}

function providerView(p: IdentityProviderDoc, dashboardUrl: string): Record<string, unknown> {
  return {
    issuer: p.issuer,
    client_id: p.client_id,
    client_secret: { set: true },
    redirect_uri: callbackUrlOf(dashboardUrl),
    updated_by: p.updated_by,
    updated_at: p.updated_at,
  };
}

const cannotManage = (role: ApiKeyRole): ApiError =>
  new ApiError(403, 'forbidden', `Your role (${role}) cannot invite or remove owners; it needs owner.`);

/**
 * Members, invitations and the account's identity provider under /v1 (docs/members.md). Admins
 * invite and remove members below owner, owners anyone — the rule API keys follow. The client
 * secret is sealed with SECRETS_KEYS and never answered; an invitation's token is only in its mail.
 */
export function memberRoutes(deps: MemberRouteDeps): Router {
  const r = Router();
  const { members, store, logger } = deps;

  r.get('/account/identity-provider', ...operation('getIdentityProvider'), async (req: Request, res: Response) => {
    const p = await members.provider(accountOf(req));
    if (!p) throw notFound('Identity provider');
    res.json(providerView(p, deps.dashboardUrl));
  });

  r.put('/account/identity-provider', ...operation('setIdentityProvider'), async (req: Request, res: Response) => {
    const body = req.body as { issuer: string; client_id: string; client_secret: string };
    const problem = issuerProblem(body.issuer);
    if (problem) throw invalid([{ field: 'issuer', message: problem }]);
    // the issuer must answer its discovery document now: a typo is a 400 here, not a failed sign-in later
    try {
      await deps.relyingParty.provider(body.issuer);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      throw invalid([{ field: 'issuer', message: `is not a usable OpenID provider (${err.message})` }]);
    }
    const doc: IdentityProviderDoc = {
      _id: accountOf(req),
      issuer: body.issuer,
      client_id: body.client_id,
      client_secret: deps.secrets.encrypt(body.client_secret),
      updated_at: new Date(),
      updated_by: actorOf(req),
    };
    await members.saveProvider(doc);
    await audit(store, req, {
      action: 'identity_provider_set',
      details: { issuer: doc.issuer, client_id: doc.client_id, secrets_changed: ['client_secret'] },
    });
    res.json(providerView(doc, deps.dashboardUrl));
  });

  r.delete(
    '/account/identity-provider',
    ...operation('removeIdentityProvider'),
    async (req: Request, res: Response) => {
      if (!(await members.removeProvider(accountOf(req)))) throw notFound('Identity provider');
      await audit(store, req, { action: 'identity_provider_removed' });
      res.status(204).end();
    },
  );

  r.get('/members', ...operation('listMembers'), async (req: Request, res: Response) => {
    res.json({ data: (await members.membersOf(accountOf(req))).map(memberView) });
  });

  r.delete('/members/:memberId', ...operation('removeMember'), async (req: Request, res: Response) => {
    const accountId = accountOf(req);
    const found = await members.member(String(req.params.memberId));
    if (!found || found.account_id !== accountId) throw notFound('Member');
    if (!mayManage(roleOf(req), found.role)) throw cannotManage(roleOf(req));
    // the member's sessions look the member up on every request: from now on they are refused
    if (!(await members.removeMember(accountId, found._id))) throw notFound('Member');
    await audit(store, req, {
      action: 'member_removed',
      details: { member_id: found._id, email: found.email, role: found.role },
    });
    logger.info('member removed', { account_id: accountId, member_id: found._id, actor: actorOf(req) });
    res.status(204).end();
  });

  r.get('/members/invitations', ...operation('listInvitations'), async (req: Request, res: Response) => {
    res.json({ data: (await openInvitations(members, accountOf(req))).map(invitationView) });
  });

  r.post('/members/invitations', ...operation('createInvitation'), async (req: Request, res: Response) => {
    const accountId = accountOf(req);
    const { email, role } = req.body as { email: string; role: ApiKeyRole };
    if (!mayManage(roleOf(req), role)) throw cannotManage(roleOf(req));
    if (!deps.mailer)
      throw new ApiError(
        503,
        'mail_unavailable',
        'No mail relay is configured (SMTP_HOST), so no invitation can be sent.',
      );
    if (!(await members.provider(accountId)))
      throw new ApiError(
        409,
        'identity_provider_unset',
        'The account has no identity provider to sign in with; an owner sets one first (PUT /v1/account/identity-provider).',
      );
    if ((await openInvitations(members, accountId)).length >= MAX_OPEN_INVITATIONS)
      throw new ApiError(
        409,
        'too_many_invitations',
        `The account has ${MAX_OPEN_INVITATIONS} open invitations; revoke one or wait until one expires.`,
      );
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const invitation: InvitationDoc = {
      _id: newId('inv'),
      account_id: accountId,
      digest: digestOf(token),
      email: email.trim(),
      role,
      created_by: actorOf(req),
      created_at: now,
      expires_at: new Date(now.getTime() + deps.invitationTtlMs),
    };
    await members.invite(invitation);
    const link = new URL('session/oidc/start', deps.dashboardUrl);
    link.searchParams.set('invitation', token);
    try {
      await deps.mailer({
        to: invitation.email,
        accountName: (await findAccount(store, accountId))?.name ?? accountId,
        role,
        link: link.href,
        expiresAt: invitation.expires_at,
      });
    } catch (err) {
      await members.removeInvitation(accountId, invitation._id);
      logger.warn('invitation not sent', { account_id: accountId, error: (err as Error).message });
      throw new ApiError(502, 'mail_not_sent', 'The mail relay did not take the invitation; nothing was kept. Retry.');
    }
    await audit(store, req, {
      action: 'member_invited',
      details: { invitation_id: invitation._id, email: invitation.email, role },
    });
    res.status(201).set('Cache-Control', 'no-store').json(invitationView(invitation));
  });

  r.delete(
    '/members/invitations/:invitationId',
    ...operation('revokeInvitation'),
    async (req: Request, res: Response) => {
      const accountId = accountOf(req);
      const id = String(req.params.invitationId);
      if (!(await members.removeInvitation(accountId, id))) throw notFound('Invitation');
      await audit(store, req, { action: 'invitation_revoked', details: { invitation_id: id } });
      res.status(204).end();
    },
  );
  return r;
}

/** The account's invitations not yet expired; expired ones are deleted on the way (the store keeps no TTL index). */
async function openInvitations(members: MemberStore, accountId: string): Promise<InvitationDoc[]> {
  const now = Date.now();
  const all = await members.invitationsOf(accountId);
  for (const inv of all) if (inv.expires_at.getTime() <= now) await members.removeInvitation(accountId, inv._id);
  return all.filter((inv) => inv.expires_at.getTime() > now);
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * OIDC Discovery §3: an issuer is an https URL without query or fragment. Plain http is accepted
 * for a provider on this machine only (the rule SMTP_SECURITY=none follows), never across a network.
 */
export function issuerProblem(issuer: string): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'must be a URL';
  }
  if (url.search !== '' || url.hash !== '' || issuer.includes('#') || issuer.includes('?'))
    return 'must have no query or fragment';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'must use https (http only for a provider on loopback)';
}
