import express from 'express';
import type { Express, NextFunction, Request, Response } from 'express';
import type { CacheChange } from '@relay/contracts';
import type { Logger } from '@relay/logging';
import { mountHealth } from '@relay/runtime';
import type { ReadinessChecks } from '@relay/runtime';
import type { ActivityLog } from '@relay/activity-log';
import type { Store } from '@relay/store';
import type { TargetRegistry } from '@relay/targets';
import type { AccountLock } from './adapters/account-lock';
import { createLastUsedRecorder } from './adapters/api-keys';
import { MemberStore } from './adapters/member-store';
import type { DailyUsageReader, UsageCounter } from './adapters/usage-counter';
import type { Sealer } from './domain/secret-sealing';
import { accountAuditRoutes } from './transport/account-audit-routes';
import { activityRoutes } from './transport/activity-routes';
import { alertRuleRoutes } from './transport/alert-rule-routes';
import type { AlertRouteDeps } from './transport/alert-rule-routes';
import { apiKeyRoutes } from './transport/api-key-routes';
import { requireApiKey } from './transport/auth';
import { mountDashboard } from './transport/dashboard';
import type { DashboardDeps } from './transport/dashboard';
import type { ReplayDeps } from './transport/replay-deps';
import { replayRoutes } from './transport/replay-routes';
import { rerunRoutes } from './transport/rerun-routes';
import { testRequestRoutes } from './transport/test-request-routes';
import { contractRoutes } from './transport/contract-routes';
import { createEndpointLock } from './transport/endpoint-lock';
import { endpointRoutes } from './transport/endpoint-routes';
import { endpointStateRoutes } from './transport/endpoint-state-routes';
import { memberRoutes } from './transport/member-routes';
import type { MemberDeps } from './transport/member-routes';
import { errorMiddleware } from './transport/errors';
import { openApiRoutes } from './transport/openapi-routes';
import { planRoutes } from './transport/plan-routes';
import { targetKindRoutes } from './transport/target-kind-routes';
import { targetRoutes } from './transport/target-routes';
import { transformationRoutes } from './transport/transformation-routes';
import type { TargetBreakers } from './adapters/target-breakers';
import type { HeldKeysReader } from './adapters/held-keys';
import type { EndpointRouteDeps } from './transport/endpoint-common';
import { dailyUsageRoutes, usageRoutes } from './transport/usage-routes';

export interface AppDeps {
  store: Store;
  /** the Request activity log, through the driver the deployment chose (ACTIVITY_LOG_DRIVER) */
  activityLog: ActivityLog;
  registry: TargetRegistry;
  /** seals endpoint secrets at rest (@relay/secrets SecretBox from SECRETS_KEYS) */
  secrets: Sealer;
  logger: Logger;
  publicBaseUrl: string;
  /** tells every gateway and deliverer that a stored setting changed (adapters/invalidation) */
  announceChange(change: CacheChange): Promise<void>;
  /** pause and resume a target by hand (adapters/target-breakers) */
  breakers: TargetBreakers;
  /** the ordering keys the deliverers hold back per target (adapters/held-keys) */
  heldKeys: HeldKeysReader;
  dropCliBacklog: EndpointRouteDeps['dropCliBacklog'];
  /** the monthly accepted-event counter the gateway increments (adapters/usage-counter) */
  acceptedEvents: UsageCounter;
  /** the month's accepted events per endpoint and day, counted by the gateway (adapters/usage-counter) */
  dailyUsage: DailyUsageReader;
  readiness: ReadinessChecks;
  /** days activity rows are kept (ACTIVITY_RETENTION_DAYS); lists never look further back. Default 30 */
  activityRetentionDays?: number;
  /** defaults to the system clock */
  now?: () => Date;
  /** the web UI under `/` and its sign-in sessions (docs/dashboard.md); absent: the JSON API alone */
  dashboard?: DashboardDeps;
  /** serializes API-key revocations per account across processes (adapters/account-lock) */
  accountLock: AccountLock;
  /** test requests, resends and bulk retries (transport/replay-routes.ts); without it those routes are not served */
  replay?: ReplayDeps;
  /** alert rules and the alert history (docs/alerts.md); without it those routes are not served */
  alerts?: AlertRouteDeps;
  /** members, invitations and sign-in with the account's identity provider (docs/members.md); without it those routes are not served */
  members?: Omit<MemberDeps, 'members'>;
}

/**
 * The management API: endpoints, their state actions and audit history, their targets and the
 * activity log under /v1; the account's usage at the spec's `/billing/usage` (also served as
 * `/v1/billing/usage`); API keys, the plan and the account audit history. Every route but the
 * health checks and the OpenAPI document (`/v1/openapi.json`, `/v1/docs`) needs an API key;
 * each route's operation in that document names the least role it needs (transport/operation.ts).
 */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  mountHealth(app, deps.readiness);
  const now = deps.now ?? (() => new Date());
  const endpointDeps = { ...deps, now, lock: createEndpointLock() };
  const billing = usageRoutes({ ...deps, now });
  app.use(openApiRoutes());
  const recordKeyUse = createLastUsedRecorder(deps.store, {
    now,
    onError: (err) => deps.logger.warn('api key last-used not recorded', { error: err.message }),
  });
  const authenticate = requireApiKey(deps.store, recordKeyUse);
  const members = deps.members ? { ...deps.members, members: new MemberStore(deps.store) } : undefined;
  const memberDeps = members
    ? { ...members, store: deps.store, secrets: deps.secrets, logger: deps.logger }
    : undefined;
  if (deps.dashboard)
    mountDashboard(app, deps.dashboard, members?.members ?? new MemberStore(deps.store), authenticate, memberDeps);
  app.use(['/v1', '/billing'], express.json({ limit: '256kb' }), authenticate);
  app.use('/billing', billing);
  app.use('/v1/billing', billing, dailyUsageRoutes({ ...deps, now }));
  if (deps.replay) app.use('/v1', testRequestRoutes(deps.replay), replayRoutes(deps.replay), rerunRoutes(deps.replay));
  if (deps.alerts) app.use('/v1', alertRuleRoutes(deps.alerts));
  if (memberDeps) app.use('/v1', memberRoutes(memberDeps));
  const retentionMs = (deps.activityRetentionDays ?? 30) * 86_400_000;
  // before the targets' router: it owns /targets/:targetId/transformation too
  app.use('/v1/endpoints', transformationRoutes({ ...endpointDeps, retentionMs, activityLog: deps.activityLog }));
  app.use('/v1/endpoints/:endpointId/targets', targetRoutes(deps));
  app.use('/v1/target-kinds', targetKindRoutes(deps.registry));
  app.use('/v1/endpoints', endpointRoutes(endpointDeps), endpointStateRoutes(endpointDeps), contractRoutes(deps));
  app.use('/v1/activity', activityRoutes(deps.activityLog, deps.store, retentionMs, now));
  app.use('/v1/api-keys', apiKeyRoutes(deps));
  app.use('/v1/account', planRoutes(deps));
  app.use('/v1/audit', accountAuditRoutes(deps.store));
  app.use((_req: Request, res: Response) => {
    res.status(404).json({ code: 'not_found', message: 'Not found.' });
  });
  // An undecodable path (`/v1/endpoints/%ZZ`; the router raises a URIError with status 400) is
  // the caller's mistake: a documented 400, not a 500 with a logged stack trace.
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!(err instanceof URIError && (err as URIError & { status?: number }).status === 400)) return next(err);
    res.status(400).json({ code: 'malformed_path', message: 'The URL path is not valid percent-encoding.' });
  });
  app.use(errorMiddleware(deps.logger));
  return app;
}
