import type { Request } from 'express';
import type { Store } from '@relay/store';
import { recordAudit } from '../adapters/account-audit';
import type { AuditEntry, AuditWho } from '../adapters/account-audit';
import { accountOf, actorNameOf, actorOf } from './auth';

/**
 * The one place every write route records its change: one call per route,
 * after the change is stored, beside its cache announcement —
 *
 *   await audit(store, req, { action: 'target_deleted', endpoint_id, details: { target_id } });
 *
 * Who is the request's API key (its prefix and name; a dashboard session's key is that key) or
 * member (their id, and name and address),
 * from where is the request's address. `details` names what changed and never a secret's value:
 * a settings change lists field names only (settingsAuditDetails).
 */
export async function audit(store: Store, req: Request, ...entries: AuditEntry[]): Promise<void> {
  await recordAudit(store, accountOf(req), whoOf(req), entries);
}

export function whoOf(req: Request): AuditWho {
  return { actor: actorOf(req), actor_name: actorNameOf(req), source_ip: sourceIpOf(req) };
}

/** The peer's address, IPv4-mapped IPv6 shown as IPv4 (`::ffff:127.0.0.1` → `127.0.0.1`). */
function sourceIpOf(req: Request): string | null {
  const ip = req.ip ?? req.socket.remoteAddress ?? null;
  return ip?.startsWith('::ffff:') ? ip.slice(7) : ip;
}

/** Settings that hold secrets: a change is shown as `changed`, never with a value. */
const SECRET_FIELDS = new Set(['inbound_auth', 'captcha']);

/** `{ fields: [...], secrets_changed: [...] }` for the names of the settings a save changed. */
export function settingsAuditDetails(fields: string[]): Record<string, unknown> {
  return { fields: [...fields].sort(), secrets_changed: fields.filter((f) => SECRET_FIELDS.has(f)).sort() };
}
