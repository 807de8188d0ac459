import type { ConfigSpec } from '@relay/config';
import type { K8sObject } from './k8s-render';

// Typed views of the rendered objects the manifest tests read, and the environment a container
// gets as the kubelet builds it.

export interface Probe {
  httpGet?: { path?: string; port?: number | string };
  exec?: unknown;
  tcpSocket?: unknown;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string }; fieldRef?: unknown };
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  lifecycle?: { preStop?: { sleep?: { seconds: number }; exec?: unknown; httpGet?: unknown } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; privileged?: boolean; capabilities?: { drop?: string[]; add?: string[] }; runAsUser?: number };
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  terminationGracePeriodSeconds?: number;
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  enableServiceLinks?: boolean;
  hostNetwork?: boolean;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; runAsGroup?: number; seccompProfile?: { type?: string } };
}

export interface Deployment extends K8sObject {
  spec: {
    replicas?: number;
    strategy?: { type?: string };
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec };
  };
}

export interface ScaleTargetRef {
  apiVersion?: string;
  kind?: string;
  name: string;
}

export interface HorizontalPodAutoscaler extends K8sObject {
  spec: { scaleTargetRef: ScaleTargetRef; minReplicas?: number; maxReplicas: number; metrics?: { type: string; resource?: { name: string; target: { type: string; averageUtilization?: number } } }[] };
}

export interface ScaledObject extends K8sObject {
  spec: {
    scaleTargetRef: ScaleTargetRef;
    minReplicaCount?: number;
    maxReplicaCount?: number;
    triggers: { type: string; metadata: Record<string, string>; authenticationRef?: { name: string; kind?: string } }[];
  };
}

export interface TriggerAuthentication extends K8sObject {
  spec: { secretTargetRef?: { parameter: string; name: string; key: string }[] };
}

export interface PodDisruptionBudget extends K8sObject {
  spec: { selector: { matchLabels?: Record<string, string> }; maxUnavailable?: number | string; minAvailable?: number | string };
}

export interface Service extends K8sObject {
  spec: { selector?: Record<string, string>; clusterIP?: string; ports: { name?: string; port: number; targetPort?: number | string }[] };
}

export const ofKind = <T extends K8sObject>(objects: readonly K8sObject[], kind: string): T[] => objects.filter((o) => o.kind === kind) as T[];

export function named<T extends K8sObject>(objects: readonly K8sObject[], kind: string, name: string): T {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind}/${name} rendered`);
  return found as T;
}

/** Where a variable comes from: a literal (a ConfigMap or `value:`) or a Secret key. */
export type EnvSource = { value: string } | { secret: { name: string; key: string } } | { unsupported: string };

/** The environment of a container as the kubelet builds it: envFrom sources first, then env. */
export function environmentOf(container: Container, objects: readonly K8sObject[]): Map<string, EnvSource> {
  const env = new Map<string, EnvSource>();
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) {
      const data = (named(objects, 'ConfigMap', from.configMapRef.name) as K8sObject & { data?: Record<string, string> }).data ?? {};
      for (const [k, v] of Object.entries(data)) env.set(k, { value: v });
    } else {
      // a whole Secret would hand every key to every service: secrets are referenced one by one
      env.set(`<envFrom ${JSON.stringify(from)}>`, { unsupported: 'envFrom other than a ConfigMap' });
    }
  }
  for (const v of container.env ?? []) {
    if (v.value !== undefined) env.set(v.name, { value: v.value });
    else if (v.valueFrom?.secretKeyRef) env.set(v.name, { secret: v.valueFrom.secretKeyRef });
    else env.set(v.name, { unsupported: JSON.stringify(v.valueFrom) });
  }
  return env;
}

/** A variable's value as the service reads it: set in the manifest, else its spec default. */
export function valueOf(spec: ConfigSpec, env: Map<string, EnvSource>, name: string): string | undefined {
  const source = env.get(name);
  if (source && 'value' in source) return source.value;
  const v = Object.values(spec).find((s) => s.env === name);
  return v?.default === undefined ? undefined : String(v.default);
}

/** A container port by number or by name. */
export function portNumber(container: Container, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

const UNITS: Record<string, number> = { '': 1, m: 1e-3, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, k: 1e3, M: 1e6, G: 1e9 };

/** A Kubernetes quantity ("250m", "1", "512Mi") as a number of cores or bytes. */
export function quantity(q: string): number {
  const m = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|k|M|G)?$/.exec(q);
  if (!m) throw new Error(`unsupported quantity ${q}`);
  return Number(m[1]) * UNITS[m[2] ?? '']!;
}

export function selects(selector: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  return selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
}
