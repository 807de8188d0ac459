import type { CacheChange } from '@relay/contracts';
import { findAccount, setPlanLimits } from '@relay/store';
import type { PlanLimits, Store } from '@relay/store';
import { recordAudit } from './account-audit';
import type { AuditWho } from './account-audit';

/**
 * Sets the plan limits given and returns the plan before and after; null when the account does
 * not exist. The caller announces the account, so every gateway reads the new plan.
 */
export async function updatePlan(
  store: Store,
  accountId: string,
  changes: Partial<PlanLimits>,
): Promise<{ before: PlanLimits; after: PlanLimits } | null> {
  const before = await setPlanLimits(store, accountId, changes);
  if (!before) return null;
  return { before, after: { ...before, ...changes } };
}

const PLAN_FIELDS = ['name', 'monthly_accepted_events', 'payload_limit_bytes'] as const;

/** The plan's fields, in a fixed order, nothing else. */
export function planOf(plan: PlanLimits): PlanLimits {
  return {
    name: plan.name,
    monthly_accepted_events: plan.monthly_accepted_events,
    payload_limit_bytes: plan.payload_limit_bytes,
  };
}

export interface PlanChange {
  /** the plan as it is now */
  plan: PlanLimits;
  /** the fields that changed; empty when the request repeated the stored values */
  changed: string[];
}

/**
 * Applies a validated plan change (the route `PATCH /v1/account/plan` and `npm run plan`):
 * sets what differs, records `plan_changed` (before and after) in the account's audit history,
 * and announces the account's plan once. Null when the account does not exist.
 */
export async function changePlan(
  store: Store,
  accountId: string,
  sent: Partial<PlanLimits>,
  who: AuditWho,
  announceChange: (change: CacheChange) => Promise<void>,
): Promise<PlanChange | null> {
  const doc = await findAccount(store, accountId);
  if (!doc) return null;
  const changes = Object.fromEntries(
    PLAN_FIELDS.filter((f) => sent[f] !== undefined && sent[f] !== doc.plan[f]).map((f) => [f, sent[f]]),
  ) as Partial<PlanLimits>;
  if (Object.keys(changes).length === 0) return { plan: planOf(doc.plan), changed: [] };
  const saved = await updatePlan(store, accountId, changes);
  if (!saved) return null;
  await recordAudit(store, accountId, who, [
    { action: 'plan_changed', details: { before: planOf(saved.before), after: planOf(saved.after) } },
  ]);
  await announceChange({ scope: 'account', id: accountId });
  return { plan: planOf(saved.after), changed: Object.keys(changes) };
}
