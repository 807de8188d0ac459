import type { SecretSealer } from '../kind';

/*
 * A target kind's configuration, described once as data (STYLE.md "A shape is described once";
 * outpost's destination metadata.json). From one description come the save-time validation
 * (validate.ts), the sealing and masking of credentials (view.ts), the OpenAPI schemas of the
 * kind's input and view (schema.ts) and the dashboard's forms (`GET /v1/target-kinds`, wire.ts).
 * What cannot be data — a URL's accepted forms, header rules, template syntax — is a small
 * `check` hook on the field it belongs to.
 */

/** What a `check` hook sees: the whole raw config (for rules across fields) and how to report. */
export interface CheckContext {
  /** the raw config as sent, before defaults */
  readonly config: Readonly<Record<string, unknown>>;
  /** this field's path, e.g. `config.custom_headers[2].name` */
  readonly path: string;
  /** reports a problem at `path` (or at a path of its own) */
  fail(message: string, path?: string): void;
  /** for an item of a list: its place in the list */
  readonly index?: number;
}

/**
 * A kind-specific rule on a value that passed the described checks. Returns the value to store
 * (normalised, e.g. a lower-cased header name) — or `undefined` to keep it as it is.
 */
export type FieldCheck<T = any> = (value: T, ctx: CheckContext) => unknown;

interface FieldBase {
  /** shown beside the control in the dashboard */
  label: string;
  /** one line under the control, and the OpenAPI description */
  help?: string;
  /** an example value, as the dashboard's placeholder and in the OpenAPI schema */
  example?: unknown;
  /** absent, null and (for text) empty are refused */
  required?: boolean;
  /** the message for a required field that is missing (default `<name> is required`) */
  requiredMessage?: string;
  /** stored when the field is absent or null */
  default?: unknown;
  /**
   * A credential: sealed at rest, shown as set (`[redacted]`, or the kind's `mask`), never
   * returned. `{ when }` names a boolean sibling that makes it one (a sensitive custom header).
   */
  credential?: boolean | { when: string };
  /** how a sealed credential is shown (a chat URL keeps its host and ids); default `[redacted]` */
  mask?: (stored: string, secrets: SecretSealer) => string;
  /**
   * The setting is one of the target's own fields (spec "Relay target": a chat target's "target
   * name"): the form does not ask for it twice, and the API fills it from the target's field.
   */
  sameAs?: 'name';
  check?: FieldCheck;
}

export interface TextField extends FieldBase {
  type: 'string';
  minLength?: number;
  maxLength?: number;
  /** a JavaScript regular expression the (trimmed) value must match */
  pattern?: string;
  /** the message for a value that does not match `pattern` (a form shows it before it sends) */
  patternMessage?: string;
  /** `email`: one mailbox address (for email-address lists) */
  format?: 'email' | 'url';
  /** trimmed before it is checked and stored */
  trim?: boolean;
  /** a multi-line text (a message template) */
  multiline?: boolean;
  /** the message for any failed string check (type, length, pattern) */
  message?: string;
}

export interface BooleanField extends FieldBase {
  type: 'boolean';
  /** must be exactly this value when present */
  const?: boolean;
  message?: string;
}

export interface IntegerField extends FieldBase {
  type: 'integer';
  minimum?: number;
  maximum?: number;
  /** the message for a value that is not an integer in range */
  message?: string;
}

/** Any finite JSON number (a routing rule's bound: `amount > 99.5`). */
export interface NumberField extends FieldBase {
  type: 'number';
  message?: string;
}

export interface EnumField extends FieldBase {
  type: 'enum';
  values: ReadonlyArray<{ value: string; label: string }>;
}

export interface ObjectField extends FieldBase {
  type: 'object';
  fields: Fields;
  /** the message when the value is not an object */
  message?: string;
}

export interface ListField extends FieldBase {
  type: 'list';
  items: Field;
  maxItems?: number;
  /** the message past maxItems; `{max}` and `{got}` are filled in */
  maxItemsMessage?: string;
  message?: string;
}

/**
 * One of several shapes told apart by a tag (outbound auth by `type`, header forwarding by
 * `mode`). Each variant lists only its own fields besides the tag.
 */
export interface VariantField extends FieldBase {
  type: 'variant';
  tag: string;
  variants: ReadonlyArray<{ value: string; label: string; fields: Fields }>;
  message?: string;
}

export type Field =
  TextField | BooleanField | IntegerField | NumberField | EnumField | ObjectField | ListField | VariantField;

/** The settings of a config or of a nested object, in the order they are checked and shown. */
export type Fields = Readonly<Record<string, Field>>;

/** A kind's description: its name for people and every setting of its config. */
export interface KindDescription {
  /** e.g. `Block-style chat webhook (Slack-like)` */
  label: string;
  help?: string;
  fields: Fields;
}

/** How a sealed value appears to API callers: never the value, never the ciphertext. */
export const REDACTED = '[redacted]';

/** Whether the field is a credential in this object (`when` reads the raw sibling). */
export function isCredential(field: Field, siblings: Readonly<Record<string, unknown>>): boolean {
  if (field.credential === true) return true;
  return typeof field.credential === 'object' && siblings[field.credential.when] === true;
}
