import type { DeliveryMessageV1 } from '@relay/contracts';
import { stripNonHeaderChars } from './headers';

/**
 * Template variables allowed in custom header values (spec "Relay target": "values may use
 * template variables such as {{originating_ip}} and {{uuid}}"). There is deliberately no
 * variable that reads an incoming header, so templates cannot emit the headers rules 4–5 remove.
 */
export const TEMPLATE_VARIABLES = [
  'originating_ip',
  'uuid',
  'event_id',
  'delivery_id',
  'endpoint_id',
  'target_id',
  'received_at',
  'attempt',
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The unknown variable names a template uses (empty = valid). */
export function unknownVariables(template: string): string[] {
  const known = new Set<string>(TEMPLATE_VARIABLES);
  return [...template.matchAll(VARIABLE)].map((m) => m[1] ?? '').filter((name) => !known.has(name));
}

/** Values for one attempt. `uuid` is fresh per attempt; use {{delivery_id}} for a value stable across retries. */
export function templateValues(d: DeliveryMessageV1, uuid: string): Record<TemplateVariable, string> {
  return {
    originating_ip: d.request.source_ip,
    uuid,
    event_id: d.event_id,
    delivery_id: d.delivery_id,
    endpoint_id: d.endpoint_id,
    target_id: d.target_id,
    received_at: d.received_at,
    attempt: String(d.attempt),
  };
}

/** Renders a validated template. Substituted values lose what Node refuses in a header (CR/LF among it), so a value can never break the request. */
export function renderTemplate(template: string, values: Record<TemplateVariable, string>): string {
  return template.replace(VARIABLE, (whole, name: string) =>
    name in values ? stripNonHeaderChars(values[name as TemplateVariable]) : whole,
  );
}
