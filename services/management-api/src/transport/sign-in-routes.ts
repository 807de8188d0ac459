import { createHash } from 'node:crypto';
import { Router } from 'express';
import type { Request, Response } from 'express';
import type { Logger } from '@relay/logging';
import type { Store } from '@relay/store';
import { identityKeyOf } from '../adapters/member-store';
import type { MemberDoc } from '../adapters/member-store';
import { ProviderError } from '../adapters/oidc-relying-party';
import type { SessionStore } from '../adapters/sessions';
import { random43 } from '../adapters/sign-in-attempts';
import { checkIdToken, IdTokenError } from '../domain/id-token';
import type { Sealer } from '../domain/secret-sealing';
import { newId } from '@relay/contracts';
import { audit } from './audit-trail';
import { ApiError } from './errors';
import { callbackUrlOf, digestOf } from './member-routes';
import type { MemberDeps } from './member-routes';
import { cookieOf, isHttps, setSessionCookie } from './session';

export interface SignInRouteDeps extends MemberDeps {
  store: Store;
  secrets: Sealer;
  sessions: SessionStore;
  logger: Logger;
}

/** Binds a sign-in to the browser that began it: the callback's `state` must equal this cookie. */
const ATTEMPT_COOKIE = 'relay_signin';
const ATTEMPT_PATH = '/session/oidc';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const ACCOUNT = /^acc_[A-Za-z0-9_-]{1,60}$/;

/** A sign-in that cannot go on: the person is sent back to the dashboard, which says why (`sign_in_error`). */
class SignInFailure extends Error {
  constructor(
    readonly code: string,
    reason: string,
  ) {
    super(reason);
  }
}

function attemptCookie(req: Request, res: Response, value: string, maxAgeSeconds: number): void {
  // Lax, not Strict: the provider's redirect back is a cross-site top-level GET that must carry it
  const attrs = [
    `${ATTEMPT_COOKIE}=${value}`,
    `Path=${ATTEMPT_PATH}`,
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${maxAgeSeconds}`,
  ];
  if (isHttps(req)) attrs.push('Secure');
  res.append('Set-Cookie', attrs.join('; '));
}

/**
 * Sign-in with the account's OpenID Connect provider (docs/members.md): authorization code flow
 * with PKCE (S256), `state` and `nonce` (OIDC Core 3.1). `GET /session/oidc/start?account=<id>`
 * (or `?invitation=<token>`, the link of an invitation mail) sends the browser to the provider;
 * `GET /session/oidc/callback` checks what comes back, then signs the member in with the same
 * session cookie as a key sign-in and sends the browser to the dashboard.
 */
export function signInRoutes(deps: SignInRouteDeps): Router {
  const r = Router();
  const { members, store, logger } = deps;
  const redirectUri = callbackUrlOf(deps.dashboardUrl);
  const backToDashboard = (res: Response, code?: string): void => {
    const to = new URL(deps.dashboardUrl);
    if (code) to.searchParams.set('sign_in_error', code);
    res.redirect(303, to.href);
  };
  r.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  const providerOf = async (accountId: string) => {
    const config = await members.provider(accountId);
    if (!config) throw new SignInFailure('identity_provider_unset', `account ${accountId} has no identity provider`);
    try {
      return { config, info: await deps.relyingParty.provider(config.issuer) };
    } catch (err) {
      if (err instanceof ProviderError) throw new SignInFailure('identity_provider_unreachable', err.message);
      throw err;
    }
  };

  r.get('/start', async (req: Request, res: Response) => {
    const { account, invitation } = req.query;
    if (invitation !== undefined && (typeof invitation !== 'string' || !TOKEN.test(invitation)))
      throw new ApiError(400, 'validation_failed', 'invitation: must be the token of an invitation link', [
        { field: 'invitation', message: 'must be the token of an invitation link' },
      ]);
    if (invitation === undefined && (typeof account !== 'string' || !ACCOUNT.test(account)))
      throw new ApiError(400, 'validation_failed', 'account: must be an account id (acc_…)', [
        { field: 'account', message: 'must be an account id (acc_…)' },
      ]);
    try {
      let accountId = account as string;
      if (typeof invitation === 'string') {
        const inv = await members.invitationByDigest(digestOf(invitation));
        if (!inv || inv.expires_at.getTime() <= Date.now())
          throw new SignInFailure('invitation_invalid', 'the invitation is unknown, used or expired');
        accountId = inv.account_id;
      }
      const { config, info } = await providerOf(accountId);
      const codeVerifier = random43();
      const nonce = random43();
      const state = await deps.attempts.begin({
        accountId,
        codeVerifier,
        nonce,
        invitation: typeof invitation === 'string' ? invitation : null,
      });
      const to = new URL(info.authorizationEndpoint);
      for (const [k, v] of Object.entries({
        response_type: 'code',
        client_id: config.client_id,
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        state,
        nonce,
        code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
        code_challenge_method: 'S256',
      }))
        to.searchParams.set(k, v);
      attemptCookie(req, res, state, 600);
      res.redirect(303, to.href);
    } catch (err) {
      if (!(err instanceof SignInFailure)) throw err;
      logger.warn('sign-in not started', { code: err.code, reason: err.message });
      backToDashboard(res, err.code);
    }
  });

  r.get('/callback', async (req: Request, res: Response) => {
    const state = typeof req.query.state === 'string' ? req.query.state : '';
    const bound = cookieOf(req, ATTEMPT_COOKIE);
    attemptCookie(req, res, '', 0);
    try {
      // a callback this browser did not begin (a forged link, another person's code) is refused
      if (!bound || bound !== state) throw new SignInFailure('sign_in_expired', 'state does not match this browser');
      const attempt = await deps.attempts.take(state);
      if (!attempt) throw new SignInFailure('sign_in_expired', 'unknown, expired or used state');
      if (typeof req.query.error === 'string' || typeof req.query.code !== 'string')
        throw new SignInFailure('provider_refused', `the provider answered ${String(req.query.error ?? 'no code')}`);
      const { config, info } = await providerOf(attempt.accountId);
      let claims;
      try {
        const idToken = await deps.relyingParty.redeem({
          provider: info,
          clientId: config.client_id,
          clientSecret: deps.secrets.decrypt(config.client_secret),
          code: req.query.code,
          codeVerifier: attempt.codeVerifier,
          redirectUri,
        });
        claims = await checkIdToken(idToken, {
          issuer: config.issuer,
          clientId: config.client_id,
          nonce: attempt.nonce,
          keys: info.keys,
        });
      } catch (err) {
        if (err instanceof ProviderError || err instanceof IdTokenError)
          throw new SignInFailure('identity_not_verified', err.message);
        throw err;
      }
      const identity = identityKeyOf(attempt.accountId, claims.issuer, claims.subject);
      let member = await members.memberByIdentity(identity);
      if (attempt.invitation !== null) {
        const inv = await members.invitationByDigest(digestOf(attempt.invitation));
        // deleted before the member is added: of two sign-ins with one link, one wins
        if (!inv || inv.account_id !== attempt.accountId || inv.expires_at.getTime() <= Date.now())
          throw new SignInFailure('invitation_invalid', 'the invitation is unknown, used or expired');
        // A forwarded link is not a way in for another person: where the provider vouches for an
        // address (email_verified not false) it must be the invited one. The invitation stays open.
        if (claims.email !== null && claims.email.toLowerCase() !== inv.email.toLowerCase())
          throw new SignInFailure('invitation_other_address', 'the identity has another verified address');
        if (!(await members.removeInvitation(inv.account_id, inv._id)))
          throw new SignInFailure('invitation_invalid', 'the invitation is unknown, used or expired');
        if (!member) {
          const joined: MemberDoc = {
            _id: newId('mem'),
            account_id: inv.account_id,
            identity,
            issuer: claims.issuer,
            subject: claims.subject,
            email: inv.email,
            name: claims.name,
            role: inv.role,
            invited_by: inv.created_by,
            created_at: new Date(),
          };
          if (await members.addMember(joined)) {
            member = joined;
            Object.assign(req, { member, accountId: member.account_id, actor: member._id });
            await audit(store, req, {
              action: 'member_joined',
              details: { member_id: member._id, email: member.email, role: member.role, invitation_id: inv._id },
            });
          } else member = await members.memberByIdentity(identity);
        }
      }
      if (!member) throw new SignInFailure('not_a_member', 'this identity is not a member of the account');
      const { id, session } = await deps.sessions.create({ memberId: member._id });
      setSessionCookie(req, res, id, Math.floor((session.expiresAt - Date.now()) / 1000));
      logger.info('member signed in', { account_id: member.account_id, member_id: member._id });
      backToDashboard(res);
    } catch (err) {
      if (!(err instanceof SignInFailure)) throw err;
      logger.warn('sign-in refused', { code: err.code, reason: err.message });
      backToDashboard(res, err.code);
    }
  });
  return r;
}
