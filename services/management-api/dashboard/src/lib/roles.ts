import type { ApiKey } from '@relay/client';

/**
 * What a role may do, read from the API's own OpenAPI document (`GET /v1/openapi.json`): each
 * operation names the least role it needs (`x-relay-role`), and the API refuses a key below it
 * (docs/management-api.md "Roles"). The dashboard asks the same table before it shows a page or
 * enables a control, so a page or button a role cannot use is hidden or disabled everywhere from
 * this one place, and never disagrees with the API.
 */
export type Role = ApiKey['role'];

/** Each role may everything the one before it may (the API's `allows`). */
const RANK: Readonly<Record<string, number>> = { viewer: 0, editor: 1, admin: 2, owner: 3 };

/** operationId → the least role it needs; an open operation (health, the document) needs none. */
export type RoleTable = ReadonlyMap<string, string | null>;

interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
}

export function roleTable(doc: OpenApiDocument): RoleTable {
  const table = new Map<string, string | null>();
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      if (typeof op !== 'object' || op === null) continue;
      const { operationId, 'x-relay-role': role } = op as { operationId?: unknown; 'x-relay-role'?: unknown };
      if (typeof operationId === 'string') table.set(operationId, typeof role === 'string' ? role : null);
    }
  }
  return table;
}

export interface Abilities {
  /** whether this role may call the operation (an operation the document lacks: no) */
  may(operationId: string): boolean;
  /** change endpoints and targets (the controls of the endpoint and outputs pages) */
  edit: boolean;
  readUsage: boolean;
  manageKeys: boolean;
  /** the account-wide audit history */
  readAccountAudit: boolean;
}

export function abilitiesOf(role: string, table: RoleTable): Abilities {
  const rank = RANK[role] ?? -1;
  const may = (operationId: string): boolean => {
    if (!table.has(operationId)) return false;
    const least = table.get(operationId);
    return least === null || least === undefined || rank >= (RANK[least] ?? Infinity);
  };
  return {
    may,
    edit: may('updateEndpoint'),
    readUsage: may('getUsageV1'),
    manageKeys: may('listApiKeys'),
    readAccountAudit: may('listAccountAudit'),
  };
}
