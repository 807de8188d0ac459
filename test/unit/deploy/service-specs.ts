import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { ConfigSpec } from '@relay/config';

export const ROOT = path.resolve(__dirname, '../../..');

export interface ServiceSpec {
  name: string;
  spec: ConfigSpec;
}

/** Every workspace under services/, written or not. */
export function serviceDirs(): string[] {
  return readdirSync(path.join(ROOT, 'services'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/**
 * Deployments that run a program of another name (docs/architecture.md "Deliverers"): each
 * deliverer deployment is services/deliverer on its DELIVERY_CHANNEL. Name → the service folder
 * whose program and config spec it runs. Everything a deploy file must satisfy for a service
 * holds for these too; the folder itself is deployed only through them.
 */
export const PROGRAM_INSTANCES: Readonly<Record<string, string>> = { 'webhook-deliverer': 'deliverer', 'chat-deliverer': 'deliverer', 'outputs-deliverer': 'deliverer' };
const PROGRAMS_RUN_AS_INSTANCES = new Set(Object.values(PROGRAM_INSTANCES));

/**
 * Deployments that do not trace (docs/observability.md "Traces": the management API is not on an
 * event's path). Every other one reads the tracing variables (TRACING_ENV of @relay/telemetry)
 * beside its config spec.
 */
const UNTRACED = new Set(['management-api']);

/** Whether a deployment traces, so that it may be given the tracing variables. */
export function traces(deployment: string): boolean {
  return !UNTRACED.has(deployment);
}

/** The service folder a deployment runs. */
export function programOf(deployment: string): string {
  return PROGRAM_INSTANCES[deployment] ?? deployment;
}

/** Every deployment: each service with a config spec (but a program run only as instances), and each program instance. */
export function deployedNames(): string[] {
  return [...serviceDirs().filter((name) => existsSync(configPath(name)) && !PROGRAMS_RUN_AS_INSTANCES.has(name)), ...Object.keys(PROGRAM_INSTANCES)].sort();
}

export function configPath(service: string): string {
  return path.join(ROOT, 'services', service, 'src', 'config.ts');
}

/** The `configSpec` a service exports from src/config.ts: the variables it reads (STYLE.md, config). */
export function loadConfigSpec(service: string): ConfigSpec {
  const file = configPath(service);
  if (!existsSync(file)) throw new Error(`services/${service}/src/config.ts is missing`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- which services exist is known only at run time
  const mod = require(file) as { configSpec?: ConfigSpec };
  if (!mod.configSpec) throw new Error(`services/${service}/src/config.ts does not export configSpec`);
  return mod.configSpec;
}

/** The specs of every service that has a config.ts, by service name. */
export function loadServiceSpecs(): ServiceSpec[] {
  return serviceDirs()
    .filter((name) => existsSync(configPath(name)))
    .map((name) => ({ name, spec: loadConfigSpec(name) }));
}
