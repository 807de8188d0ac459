import { newId } from '@relay/contracts';
import { appendAudit, auditRows } from '@relay/store';
import type { AUDIT_ACTIONS, AuditRecord, Store } from '@relay/store';

/*
 * The audit history: every change of configuration — endpoint settings and state, targets, API
 * keys, the plan — in one collection, so `GET /v1/audit` lists all of an account's rows and
 * `GET /v1/endpoints/:id/audit` (or `GET /v1/audit?endpoint_id=`) one endpoint's, newest first.
 * The routes write through transport/audit-trail.ts `audit(req, …)`; the operator's commands
 * (bootstrap, plan) call recordAudit with the actor `operator`.
 */

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who made a change: the API key's prefix and name, and where the request came from. */
export interface AuditWho {
  actor: string;
  actor_name: string | null;
  source_ip: string | null;
}

export const OPERATOR: AuditWho = { actor: 'operator', actor_name: null, source_ip: null };

export interface AuditEntry {
  action: AuditAction;
  endpoint_id?: string;
  key_id?: string;
  /** what changed — names of fields, ids, roles; never a secret's value */
  details?: Record<string, unknown>;
}

/** Writes the rows of one change, one millisecond apart so they list in the order given. */
export async function recordAudit(
  store: Store,
  accountId: string,
  who: AuditWho,
  entries: AuditEntry[],
): Promise<void> {
  const at = Date.now();
  await appendAudit(
    store,
    entries.map((e, i) => ({ id: newId('aud'), account_id: accountId, ...who, ...e, at: new Date(at + i) })),
  );
}

/** An operator command's row (actor `operator`). */
export async function recordAccountAudit(
  store: Store,
  row: { account_id: string; action: AuditAction; actor: string; key_id?: string; details: Record<string, unknown> },
): Promise<void> {
  const { account_id, actor, ...entry } = row;
  await recordAudit(store, account_id, { ...OPERATOR, actor }, [entry]);
}

/** The account's rows, or one endpoint's, newest first; `before` pages on `at`. */
export async function listAccountAudit(
  store: Store,
  accountId: string,
  limit: number,
  before: Date | null,
  endpointId?: string,
): Promise<AuditRecord[]> {
  return auditRows(store, accountId, limit, before, endpointId);
}

/** A row as the API shows it (both audit routes): every field present, null when not set. */
export function auditRowView(a: AuditRecord): Record<string, unknown> {
  return {
    id: a.id,
    action: a.action,
    actor: a.actor,
    actor_name: a.actor_name ?? null,
    source_ip: a.source_ip ?? null,
    at: a.at,
    endpoint_id: a.endpoint_id ?? null,
    key_id: a.key_id ?? null,
    details: a.details ?? null,
  };
}
