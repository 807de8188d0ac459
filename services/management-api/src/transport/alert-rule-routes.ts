import { Router } from 'express';
import type { Request, Response } from 'express';
import { dropWatch, idsNamedBy, readHistory, updateWatch, validateAlertRule } from '@relay/alerts';
import type { AlertEvaluator, AlertRule, AlertRuleInput, AlertRuleStore } from '@relay/alerts';
import type { RedisClient } from '@relay/cache';
import type { FieldError } from '@relay/contracts';
import { isAccountTarget } from '@relay/store';
import type { Store } from '@relay/store';
import type { ActionLimiter } from '../adapters/action-limiter';
import { endpointExists } from '../adapters/endpoint-store';
import { audit } from './audit-trail';
import { accountOf } from './auth';
import { ApiError, invalid, notFound } from './errors';
import { checked, operation } from './operation';

export interface AlertRouteDeps {
  store: Store;
  rules: AlertRuleStore;
  evaluator: AlertEvaluator;
  redis: RedisClient;
  namespace: string;
  limits: ActionLimiter;
  now(): Date;
}

/** Test alerts an account may send a minute: they reach real chat channels and inboxes. */
export const TEST_ALERTS_PER_MINUTE = 10;

export const alertRuleView = (r: AlertRule): Record<string, unknown> => ({
  id: r.id,
  name: r.name,
  enabled: r.enabled,
  target_ids: r.target_ids,
  conditions: r.conditions,
  cooldown_minutes: r.cooldown_minutes,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

/** Alert rules (docs/alerts.md) and the account's alert history. */
export function alertRuleRoutes(deps: AlertRouteDeps): Router {
  const r = Router();
  const { store, rules } = deps;

  /** Every target and endpoint the rule names must be the account's: 400 naming the field otherwise. */
  const owned = async (accountId: string, input: AlertRuleInput): Promise<void> => {
    const { targets, endpoints } = idsNamedBy(input);
    const errors: FieldError[] = [];
    const where = (id: string): string => {
      const i = input.target_ids.indexOf(id);
      if (i >= 0) return `target_ids[${i}]`;
      const c = input.conditions.findIndex((x) => x.target_id === id || x.endpoint_id === id);
      return `conditions[${c}].${id.startsWith('tg_') ? 'target_id' : 'endpoint_id'}`;
    };
    await Promise.all([
      ...targets.map(async (id) => {
        if (!(await isAccountTarget(store, accountId, id)))
          errors.push({ field: where(id), message: 'is not a target of this account' });
      }),
      ...endpoints.map(async (id) => {
        if (!(await endpointExists(store, accountId, id)))
          errors.push({ field: where(id), message: 'is not an endpoint of this account' });
      }),
    ]);
    if (errors.length > 0) throw invalid(errors.sort((a, b) => a.field.localeCompare(b.field)));
  };
  const found = (rule: AlertRule | null): AlertRule => {
    if (!rule) throw notFound('Alert rule');
    return rule;
  };

  r.get('/alert-rules', ...operation('listAlertRules'), async (req: Request, res: Response) => {
    res.json({ data: (await rules.listByAccount(accountOf(req))).map(alertRuleView) });
  });

  r.post(
    '/alert-rules',
    ...operation('createAlertRule', { reportWithHandler: true }),
    async (req: Request, res: Response) => {
      const accountId = accountOf(req);
      const input = checked(req, validateAlertRule(req.body));
      await owned(accountId, input);
      const rule = await rules.create(accountId, input, deps.now());
      if (!rule)
        throw new ApiError(
          409,
          'too_many_alert_rules',
          'The account has the most alert rules it may have; delete one first.',
        );
      await updateWatch(deps.redis, deps.namespace, rule);
      await audit(store, req, {
        action: 'alert_rule_created',
        details: { rule_id: rule.id, name: rule.name, kinds: rule.conditions.map((c) => c.kind) },
      });
      res.status(201).json(alertRuleView(rule));
    },
  );

  r.get('/alert-rules/:ruleId', ...operation('getAlertRule'), async (req: Request, res: Response) => {
    res.json(alertRuleView(found(await rules.get(accountOf(req), String(req.params.ruleId)))));
  });

  r.put(
    '/alert-rules/:ruleId',
    ...operation('replaceAlertRule', { reportWithHandler: true }),
    async (req: Request, res: Response) => {
      const accountId = accountOf(req);
      const ruleId = String(req.params.ruleId);
      found(await rules.get(accountId, ruleId));
      const input = checked(req, validateAlertRule(req.body));
      await owned(accountId, input);
      const rule = found(await rules.replace(accountId, ruleId, input, deps.now()));
      await updateWatch(deps.redis, deps.namespace, rule);
      await audit(store, req, {
        action: 'alert_rule_updated',
        details: { rule_id: rule.id, name: rule.name, kinds: rule.conditions.map((c) => c.kind) },
      });
      res.json(alertRuleView(rule));
    },
  );

  r.delete('/alert-rules/:ruleId', ...operation('deleteAlertRule'), async (req: Request, res: Response) => {
    const gone = found(await rules.delete(accountOf(req), String(req.params.ruleId)));
    await dropWatch(deps.redis, deps.namespace, gone.id);
    await audit(store, req, { action: 'alert_rule_deleted', details: { rule_id: gone.id, name: gone.name } });
    res.status(204).end();
  });

  r.post('/alert-rules/:ruleId/test', ...operation('testAlertRule'), async (req: Request, res: Response) => {
    const accountId = accountOf(req);
    const rule = found(await rules.get(accountId, String(req.params.ruleId)));
    const allowed = await deps.limits.take(accountId, 'test-alert', TEST_ALERTS_PER_MINUTE, 60_000);
    if (!allowed.ok)
      throw new ApiError(
        429,
        'too_many_test_alerts',
        `At most ${TEST_ALERTS_PER_MINUTE} test alerts a minute. Retry after the delay in Retry-After.`,
        undefined,
        { 'Retry-After': String(allowed.retryAfterSeconds) },
      );
    const sent = await deps.evaluator.sendTest(rule);
    await audit(store, req, {
      action: 'alert_test_sent',
      details: { rule_id: rule.id, name: rule.name, alert_id: sent.id },
    });
    res.status(202).json(sent);
  });

  r.get('/alerts', ...operation('listAlerts'), async (req: Request, res: Response) => {
    res.json({ data: await readHistory(deps.redis, deps.namespace, accountOf(req)) });
  });
  return r;
}
