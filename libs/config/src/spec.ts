/**
 * A service's configuration is described once, as data: each key names its environment
 * variable, its type, default and one-line meaning. The same description validates the
 * environment at start-up, writes `.env.example`, and lets tests check that deploy files only
 * set variables a service actually reads.
 */
type VarType = 'string' | 'integer' | 'boolean' | 'url' | 'enum' | 'list';

export interface VarSpec<T = unknown> {
  env: string;
  type: VarType;
  description: string;
  default?: T;
  /** for `integer` */
  min?: number;
  max?: number;
  /** for `enum` */
  values?: readonly string[];
  /** for `url`: accepted schemes, e.g. ['amqp:', 'amqps:'] */
  protocols?: readonly string[];
  /** for `url`: a comma-separated list of URLs is accepted, each checked (a cluster's nodes) */
  several?: boolean;
  /** never printed by `describeConfig` or log lines */
  secret?: boolean;
}

export type ConfigSpec = Record<string, VarSpec>;

type ValueOf<S extends VarSpec> = S extends VarSpec<infer T> ? T : never;

export type ConfigOf<S extends ConfigSpec> = { readonly [K in keyof S]: ValueOf<S[K]> };

export function str(env: string, description: string, opts: Partial<VarSpec<string>> = {}): VarSpec<string> {
  return { env, type: 'string', description, ...opts };
}

export function int(env: string, description: string, opts: Partial<VarSpec<number>> = {}): VarSpec<number> {
  return { env, type: 'integer', description, ...opts };
}

export function bool(env: string, description: string, opts: Partial<VarSpec<boolean>> = {}): VarSpec<boolean> {
  return { env, type: 'boolean', description, ...opts };
}

export function url(env: string, description: string, opts: Partial<VarSpec<string>> = {}): VarSpec<string> {
  return { env, type: 'url', description, ...opts };
}

export function oneOf<T extends string>(
  env: string,
  description: string,
  values: readonly T[],
  opts: Partial<VarSpec<T>> = {},
): VarSpec<T> {
  return { env, type: 'enum', description, values, ...opts };
}

export function list(env: string, description: string, opts: Partial<VarSpec<string[]>> = {}): VarSpec<string[]> {
  return { env, type: 'list', description, ...opts };
}
