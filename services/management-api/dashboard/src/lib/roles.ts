import type { ApiKey } from '@relay/client';

/**
 * What a role may do, as the API enforces it (docs/management-api.md, issue 11's permissions
 * table): the dashboard hides what a role cannot reach and disables what it cannot change. The
 * API decides; this only spares a user buttons that would answer 403.
 */
export type Role = ApiKey['role'];

export interface Abilities {
  edit: boolean;
  readUsage: boolean;
  manageKeys: boolean;
}

export function abilitiesOf(role: string): Abilities {
  return {
    edit: role === 'owner' || role === 'admin' || role === 'editor',
    readUsage: role === 'owner' || role === 'admin',
    manageKeys: role === 'owner' || role === 'admin',
  };
}
