import { ACTIVITY_REQUEST_V1, DELIVERY_V1, deliveryIdFor, newEventId, newId } from '@relay/contracts';
import type { AccountEvent, ActivityRequestV1, DeliveryMessageV1 } from '@relay/contracts';
import { createActivityPublisher, DeliveryPublisher } from '@relay/broker';
import type { ActivityPublisher, ConfirmPublisher } from '@relay/broker';
import type { RedisClient } from '@relay/cache';
import type { Logger } from '@relay/logging';
import { findEndpoint, findTarget } from '@relay/store';
import type { Store } from '@relay/store';
import { channelOf } from '@relay/targets';
import { CONDITIONS } from './describe';
import { startsEpisode, withinRuleRate } from './episodes';
import { recordAlert } from './history';
import type { AlertHistoryEntry } from './history';
import { alertBody, dashboardLink, summaryOf } from './message';
import type { AlertMeter } from './metrics';
import type { AlertRuleStore } from './rule-store';
import type { AlertCondition, AlertRule } from './rules';

interface AlertEvaluatorDeps {
  store: Store;
  rules: AlertRuleStore;
  redis: RedisClient;
  publisher: ConfirmPublisher;
  namespace: string;
  logger: Logger;
  /** where the dashboard is (DASHBOARD_URL): alerts link into it */
  dashboardUrl: string;
  /** counts what became of each sighting (createAlertMetrics) */
  meter?: AlertMeter;
  now?: () => Date;
}

/** Whether an event is what a condition watches: its kind, and its target or endpoint when the condition names one. */
export function conditionMatches(c: AlertCondition, event: AccountEvent): boolean {
  if (c.kind !== event.kind) return false;
  if (c.target_id && c.target_id !== event.target_id) return false;
  if (c.endpoint_id && c.endpoint_id !== event.endpoint_id) return false;
  if (c.outcome && event.detail.outcome !== undefined && c.outcome !== event.detail.outcome) return false;
  return true;
}

/** What one episode is about: the kind and its subject (a target; an endpoint and outcome; the account's month and threshold; a new payload shape). */
export function episodeKey(c: AlertCondition, event: AccountEvent): string {
  if (event.kind === 'quota_nearly_used') return `${event.kind}:${event.at.slice(0, 7)}:${c.threshold_percent ?? ''}`;
  if (event.kind === 'rejection_spike') return `${event.kind}:${event.endpoint_id ?? ''}:${c.outcome ?? ''}`;
  // each drift event is about one new shape already (the gateway tells each once): its own episode
  if (event.kind === 'payload_drift')
    return `${event.kind}:${event.endpoint_id ?? ''}:${String(event.detail.event_id)}`;
  return `${event.kind}:${event.target_id ?? event.endpoint_id ?? event.account_id}`;
}

/**
 * Turns account events into alerts (docs/alerts.md): finds the account's enabled rules that
 * watch the event, sends each at most once per episode and within its hourly rate, through the
 * normal delivery path to the rule's targets, and records it in the account's alert history.
 */
export class AlertEvaluator {
  private readonly activity: ActivityPublisher;
  private readonly deliveries: DeliveryPublisher;
  private readonly now: () => Date;

  constructor(private readonly deps: AlertEvaluatorDeps) {
    this.activity = createActivityPublisher(deps.publisher, deps.namespace);
    this.deliveries = new DeliveryPublisher(deps.publisher, deps.namespace);
    this.now = deps.now ?? (() => new Date());
  }

  /** An event from the account-events queue: one read of the account's rules (at most 20). */
  async handle(event: AccountEvent): Promise<void> {
    const rules = await this.deps.rules.listByAccount(event.account_id);
    for (const rule of rules) {
      if (!rule.enabled) continue;
      const condition = rule.conditions.find((c) => conditionMatches(c, event));
      if (condition) await this.fire(rule, condition, event);
    }
  }

  /** Sends the alert unless its episode is already open or the rule is over its rate; the history entry, or null. */
  async fire(rule: AlertRule, condition: AlertCondition, event: AccountEvent): Promise<AlertHistoryEntry | null> {
    const { redis, namespace, logger } = this.deps;
    const meter = this.deps.meter ?? (() => undefined);
    if (
      !(await startsEpisode(redis, namespace, rule.id, episodeKey(condition, event), rule.cooldown_minutes * 60_000))
    ) {
      meter(event.kind, 'deduplicated');
      return null;
    }
    if (!(await withinRuleRate(redis, namespace, rule.id, this.now().getTime()))) {
      meter(event.kind, 'rate_limited');
      logger.warn('alert not sent: the rule sent its most alerts this hour', {
        rule_id: rule.id,
        account_id: rule.account_id,
        kind: event.kind,
      });
      return null;
    }
    return this.send(rule, event, false);
  }

  /** POST /v1/alert-rules/:id/test: an alert about the rule's first condition, marked as a test; no episode, no rate. */
  async sendTest(rule: AlertRule): Promise<AlertHistoryEntry> {
    const c = rule.conditions[0]!;
    const event: AccountEvent = {
      type: 'relay.account-event.v1',
      kind: c.kind,
      account_id: rule.account_id,
      ...(c.endpoint_id ? { endpoint_id: c.endpoint_id } : {}),
      ...(c.target_id ? { target_id: c.target_id } : {}),
      at: this.now().toISOString(),
      detail: { test: true },
    };
    return this.send(rule, event, true);
  }

  private async send(rule: AlertRule, event: AccountEvent, test: boolean): Promise<AlertHistoryEntry> {
    const { store, logger } = this.deps;
    const [about, endpoint] = await Promise.all([
      event.target_id ? findTarget(store, event.target_id) : null,
      event.endpoint_id ? findEndpoint(store, event.endpoint_id) : null,
    ]);
    const aboutTarget = about && about.account_id === rule.account_id ? about : null;
    const link = dashboardLink(this.deps.dashboardUrl, event, aboutTarget?.endpoint_id ?? null);
    const summary = test
      ? `Test alert: this is how rule “${rule.name}” tells you that ${CONDITIONS[event.kind].label.toLowerCase()}.`
      : summaryOf(event, {
          target: aboutTarget?.name ?? null,
          endpoint: endpoint && endpoint.account_id === rule.account_id ? endpoint.name : null,
        });
    const id = newId('al');
    const body = alertBody({ id, ruleId: rule.id, ruleName: rule.name, event, summary, link, test });
    const deliveries = await Promise.all(
      rule.target_ids.map((targetId) => this.deliver(rule, targetId, body, event.kind)),
    );
    const entry: AlertHistoryEntry = {
      id,
      rule_id: rule.id,
      rule_name: rule.name,
      kind: event.kind,
      test,
      at: this.now().toISOString(),
      summary,
      link,
      endpoint_id: event.endpoint_id ?? null,
      target_id: event.target_id ?? null,
      deliveries,
    };
    await recordAlert(this.deps.redis, this.deps.namespace, rule.account_id, entry);
    this.deps.meter?.(event.kind, test ? 'test' : 'sent');
    logger.info('alert sent', {
      alert_id: id,
      rule_id: rule.id,
      account_id: rule.account_id,
      kind: event.kind,
      test,
      targets: rule.target_ids.length,
      not_sent: deliveries.filter((d) => d.error).length,
    });
    return entry;
  }

  /**
   * One delivery of the alert to one target, exactly as the gateway publishes an accepted event:
   * a `relay.delivery.v1` message to the target's channel (its attempts, retries and dead letters
   * are the deliverer's, as for any delivery) and an ACCEPTED activity row on the target's endpoint
   * marked with the alert (`alert`: rule and condition by name), so the attempts show in that
   * endpoint's activity log apart from senders' requests.
   */
  private async deliver(
    rule: AlertRule,
    targetId: string,
    body: ReturnType<typeof alertBody>,
    kind: AccountEvent['kind'],
  ): Promise<AlertHistoryEntry['deliveries'][number]> {
    const target = await findTarget(this.deps.store, targetId);
    if (!target || target.account_id !== rule.account_id)
      return { target_id: targetId, endpoint_id: null, event_id: null, error: 'target deleted' };
    const channel = channelOf(target.kind);
    if (!channel)
      return {
        target_id: targetId,
        endpoint_id: target.endpoint_id,
        event_id: null,
        error: `unknown target kind ${target.kind}`,
      };
    const now = this.now();
    const eventId = newEventId(now.getTime());
    const request = {
      method: 'POST',
      source_ip: '',
      headers: { 'content-type': 'application/json', 'x-relay-alert': kind, 'x-relay-alert-rule': rule.id },
      query: '',
    };
    const message: DeliveryMessageV1 = {
      type: DELIVERY_V1,
      event_id: eventId,
      delivery_id: deliveryIdFor(eventId, targetId),
      attempt: 1,
      account_id: rule.account_id,
      endpoint_id: target.endpoint_id,
      target_id: targetId,
      target_kind: target.kind,
      received_at: now.toISOString(),
      request,
      payload: { content_type: 'application/json', body_base64: Buffer.from(JSON.stringify(body)).toString('base64') },
    };
    const row: ActivityRequestV1 = {
      type: ACTIVITY_REQUEST_V1,
      event_id: eventId,
      account_id: rule.account_id,
      endpoint_id: target.endpoint_id,
      received_at: now.toISOString(),
      method: 'POST',
      source_ip: '',
      outcome: 'ACCEPTED',
      // by name: what the activity view shows of it (ids stay in `alert` for links)
      reason: `${CONDITIONS[kind].label}: alert of rule “${rule.name}”`,
      target_count: 1,
      test: body.alert.test,
      alert: { alert_id: body.alert.id, rule_id: rule.id, rule_name: rule.name, kind, title: CONDITIONS[kind].label },
    };
    try {
      await this.deliveries.publish([{ message, channel }]);
      await this.activity.publish(row);
      return { target_id: targetId, endpoint_id: target.endpoint_id, event_id: eventId, error: null };
    } catch (err) {
      this.deps.logger.warn('alert delivery not queued', {
        rule_id: rule.id,
        target_id: targetId,
        error: (err as Error).message,
      });
      return {
        target_id: targetId,
        endpoint_id: target.endpoint_id,
        event_id: null,
        error: 'delivery queue unavailable',
      };
    }
  }
}
