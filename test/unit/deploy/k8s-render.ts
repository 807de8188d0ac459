import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ROOT } from './service-specs';

// Renders deploy/k8s with a real kustomize and validates the output with deploy/k8s/validate.mjs
// (the vendored Kubernetes schemas and KEDA's), each as its own process, as an operator would.

export const K8S_DIR = path.join(ROOT, 'deploy', 'k8s');
/** Debian 12's kubernetes-client, unpacked by scripts/k8s-tools.sh (kubectl 1.20 = kustomize v2.0.3). */
export const KUBECTL = path.join(ROOT, '.infra', 'tools', 'kubernetes-client', 'usr', 'bin', 'kubectl');
const VALIDATOR = path.join(K8S_DIR, 'validate.mjs');

/** The kustomizations an operator applies, by name (tracing: production with traces sent to a collector, an example). */
export const KUSTOMIZATIONS = { base: 'base', production: 'overlays/production', tracing: 'overlays/tracing' } as const;
export type KustomizationName = keyof typeof KUSTOMIZATIONS;

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export interface Validation {
  apiVersion: string;
  kind: string;
  name: string;
  /** what checked it; null when nothing could */
  schema: string | null;
  errors: string[];
}

/** `kubectl kustomize deploy/k8s/<dir>`: the YAML stream an operator would apply. */
export function render(name: KustomizationName): string {
  if (!existsSync(KUBECTL)) {
    throw new Error(`${path.relative(ROOT, KUBECTL)} is missing: run \`bash scripts/k8s-tools.sh\` (npm test does)`);
  }
  const out = spawnSync(KUBECTL, ['kustomize', path.join(K8S_DIR, KUSTOMIZATIONS[name])], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`kubectl kustomize ${KUSTOMIZATIONS[name]} failed: ${out.stderr || out.error?.message}`);
  return out.stdout;
}

export function objectsOf(yaml: string): K8sObject[] {
  return parseAllDocuments(yaml)
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((obj): obj is K8sObject => obj !== null);
}

/** Runs deploy/k8s/validate.mjs on a YAML stream; `status` is its exit code. */
export function validate(yaml: string): { status: number | null; results: Validation[]; stderr: string } {
  const out = spawnSync(process.execPath, [VALIDATOR, '--json'], { input: yaml, encoding: 'utf8' });
  const results = out.stdout ? (JSON.parse(out.stdout) as Validation[]) : [];
  return { status: out.status, results, stderr: out.stderr };
}

export function toYaml(objects: readonly unknown[]): string {
  return objects.map((o) => JSON.stringify(o)).join('\n---\n');
}
