import { API_KEY_ROLES } from '@relay/store';
import type { ApiKeyRole } from '@relay/store';

export { API_KEY_ROLES };
export type { ApiKeyRole };

/**
 * The roles of a management API key, each allowed everything the one before it is
 * (docs/management-api.md "Roles"):
 *
 * - `viewer` reads endpoints, targets, their audit history and the activity log — never a
 *   secret, not even the last four characters of one;
 * - `editor` also creates, changes and deletes endpoints and targets;
 * - `admin` also reads usage (spec "Other interfaces": "readable by account owner or
 *   administrator"), the account's audit history, and manages keys below owner;
 * - `owner` everything: owner keys and the plan.
 */
const RANK: Readonly<Record<ApiKeyRole, number>> = { viewer: 0, editor: 1, admin: 2, owner: 3 };

export function isRole(value: unknown): value is ApiKeyRole {
  return typeof value === 'string' && (API_KEY_ROLES as readonly string[]).includes(value);
}

/** Whether a key of `role` may do what needs `least`. */
export function allows(role: ApiKeyRole, least: ApiKeyRole): boolean {
  return RANK[role] >= RANK[least];
}

/**
 * Whether a key of `actor` may create or revoke a key of `subject`: admins manage every key
 * below owner (other admins included), owners every key.
 */
export function mayManage(actor: ApiKeyRole, subject: ApiKeyRole): boolean {
  return allows(actor, 'admin') && (subject !== 'owner' || actor === 'owner');
}

/**
 * A key stored before roles existed has none: it is an owner key (no migration needed). A
 * stored value that is not a role (the schema never writes one) gets the least, not the most.
 */
export function roleOfStored(role: unknown): ApiKeyRole {
  if (role === undefined || role === null) return 'owner';
  return isRole(role) ? role : 'viewer';
}
