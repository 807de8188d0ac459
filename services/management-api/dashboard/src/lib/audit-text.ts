import type { AuditRow } from '@relay/client';

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What a row changed, in words: the fields by name, a secret only as "changed", the target's
 * name, the key's role and prefix, the member's address and role, the plan's settings before → after. Names come escaped, as
 * in every answer the dashboard reads (lib/display.ts namesShown).
 */
export function changeText(r: AuditRow, conditionLabels: Map<string, string> = new Map()): string {
  const d = r.details ?? {};
  if (r.action.startsWith('alert_')) {
    const rule = `Alert rule “${String(d.name ?? d.rule_id ?? '')}”`;
    if (r.action === 'alert_test_sent') return `${rule}: a test alert`;
    const kinds = list(d.kinds).map((k) => conditionLabels.get(k) ?? k);
    return kinds.length ? `${rule}: ${kinds.join(', ')}` : rule;
  }
  if (r.action === 'key_created' || r.action === 'key_revoked') {
    return [`${String(d.role ?? '')} key`, d.prefix ? `${String(d.prefix)}…` : '', d.name ? `“${String(d.name)}”` : '']
      .filter(Boolean)
      .join(' ');
  }
  if (r.action.startsWith('member_') || r.action === 'invitation_revoked') {
    return [
      d.email ? String(d.email) : String(d.invitation_id ?? d.member_id ?? ''),
      d.role ? `as ${String(d.role)}` : '',
    ]
      .filter(Boolean)
      .join(' ');
  }
  if (r.action.startsWith('identity_provider_'))
    return d.issuer ? `${String(d.issuer)}, client ${String(d.client_id)}` : '';
  if (r.action === 'plan_changed' && isObject(d.before) && isObject(d.after)) {
    const before = d.before;
    const after = d.after;
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
      (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
    );
    return keys.map((k) => `${k}: ${String(before[k] ?? '—')} → ${String(after[k] ?? '—')}`).join(', ');
  }
  if (r.action.startsWith('transformation_')) {
    const scope =
      d.scope === 'target' ? `Target ${String(d.scope_id ?? '')} transformation` : 'Endpoint transformation';
    if (typeof d.version !== 'number') return scope;
    const from = typeof d.restored_from === 'number' ? ` (restored version ${d.restored_from})` : '';
    return `${scope}: version ${d.version}${from}`;
  }
  const secrets = new Set(list(d.secrets_changed));
  const fields = list(d.fields).map((f) => (secrets.has(f) ? `${f} (secret changed)` : f));
  const target = typeof d.name === 'string' && r.action.startsWith('target_') ? `“${d.name}”` : '';
  return [target, fields.join(', ')].filter(Boolean).join(': ');
}
