import type { ENDPOINT_AUDIT_ACTIONS } from '@relay/store';

export type AuditAction = (typeof ENDPOINT_AUDIT_ACTIONS)[number];

/** The manual state controls of an endpoint (spec "States and transitions"). */
export interface ManualState {
  enabled: boolean;
  paused: boolean;
}

/**
 * The explicit actions (`POST /v1/endpoints/:id/<action>`): each sets one control and, when the
 * value actually changes, is recorded in the audit history under the same name.
 */
export const ACTIONS = {
  enable: { field: 'enabled', value: true, action: 'enabled' },
  disable: { field: 'enabled', value: false, action: 'disabled' },
  pause: { field: 'paused', value: true, action: 'paused' },
  resume: { field: 'paused', value: false, action: 'resumed' },
} as const satisfies Record<string, { field: keyof ManualState; value: boolean; action: AuditAction }>;

export type ActionName = keyof typeof ACTIONS;

/**
 * Spec: "A user's manual disable, pause or resume is recorded in the audit history; a
 * scheduled pause is not." A save records one row per control whose value changed (enable,
 * disable, pause, resume), in that order; maintenance windows are never considered.
 */
export function auditActionsFor(before: ManualState, after: Partial<ManualState>): AuditAction[] {
  const actions: AuditAction[] = [];
  if (after.enabled !== undefined && after.enabled !== before.enabled)
    actions.push(after.enabled ? 'enabled' : 'disabled');
  if (after.paused !== undefined && after.paused !== before.paused) actions.push(after.paused ? 'paused' : 'resumed');
  return actions;
}
