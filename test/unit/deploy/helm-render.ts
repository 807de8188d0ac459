import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { render } from './k8s-render';
import type { K8sObject } from './k8s-render';
import { ROOT } from './service-specs';

// Renders deploy/helm/relay with a real helm (built by scripts/helm-tool.sh), and the chart's
// default values from the kustomize base (deploy/helm/values-from-kustomize.mjs), each as its
// own process, as an operator would.

export const CHART = path.join(ROOT, 'deploy', 'helm', 'relay');
export const HELM = path.join(ROOT, '.infra', 'bin', 'helm');
const VALUES_SCRIPT = path.join(ROOT, 'deploy', 'helm', 'values-from-kustomize.mjs');

function helm(args: string[]): { status: number | null; stdout: string; stderr: string } {
  if (!existsSync(HELM)) {
    throw new Error(`${path.relative(ROOT, HELM)} is missing: run \`bash scripts/helm-tool.sh\` (npm test does)`);
  }
  const out = spawnSync(HELM, args, { encoding: 'utf8' });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr || (out.error?.message ?? '') };
}

/** `helm template relay deploy/helm/relay [--set …]`: the YAML stream `helm install` would apply. */
export function helmTemplate(set: string[] = []): string {
  const out = helm(['template', 'relay', CHART, ...set.flatMap((s) => ['--set', s])]);
  if (out.status !== 0) throw new Error(`helm template failed: ${out.stderr}`);
  return out.stdout;
}

export const helmLint = (): ReturnType<typeof helm> => helm(['lint', '--strict', CHART]);

/** The script's values.yaml for a rendered kustomize base (by default deploy/k8s/base's). */
export function valuesFromKustomize(yaml = render('base')): { status: number | null; stdout: string; stderr: string } {
  const out = spawnSync(process.execPath, [VALUES_SCRIPT], { input: yaml, encoding: 'utf8' });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

export const committedValues = (): string => readFileSync(path.join(CHART, 'values.yaml'), 'utf8');

// Helm's own labels (on no selector) and the chart's config checksum, which kustomize expresses
// by hashing ConfigMap names instead
const HELM_LABELS = ['helm.sh/chart', 'app.kubernetes.io/managed-by', 'app.kubernetes.io/instance'];
const unhashed = (name: string): string => name.replace(/-[a-z0-9]{10}$/, '');

/**
 * An object as both renderings must agree on it: without Helm's labels and checksum, and with
 * kustomize's ConfigMap name hashes taken off (names and references).
 */
export function comparable(o: K8sObject): K8sObject {
  const copy = structuredClone(o) as K8sObject & { spec?: any };
  const labels = copy.metadata.labels;
  if (labels) for (const l of HELM_LABELS) delete labels[l];
  if (labels && Object.keys(labels).length === 0) delete copy.metadata.labels;
  if (copy.kind === 'ConfigMap') copy.metadata.name = unhashed(copy.metadata.name);
  const pod = copy.kind === 'Deployment' ? copy.spec.template : null;
  if (pod) {
    delete pod.metadata.annotations?.['checksum/config'];
    for (const c of pod.spec.containers)
      for (const from of c.envFrom ?? []) if (from.configMapRef) from.configMapRef.name = unhashed(from.configMapRef.name);
  }
  return copy;
}

export const byName = (objects: K8sObject[]): Record<string, K8sObject> =>
  Object.fromEntries(objects.map(comparable).map((o) => [`${o.kind}/${o.metadata.name}`, o]));
