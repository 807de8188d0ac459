#!/usr/bin/env node
// Writes the Helm chart's default values (deploy/helm/relay/values.yaml) from the kustomize base
// (deploy/k8s/base), which is where Relay's Kubernetes defaults are decided (decision 0042): the
// chart is not a second copy to keep in step by hand.
//
//   kubectl kustomize deploy/k8s/base | node deploy/helm/values-from-kustomize.mjs > deploy/helm/relay/values.yaml
//
// Reads the rendered base on stdin. Fails, naming the object and the field, on anything in the
// base the chart's templates do not express, so a new field in the base cannot be dropped by the
// chart unnoticed. test/unit/deploy/helm.test.ts checks that the committed values.yaml is this
// script's output and that `helm template` renders the same objects as the base.
import { readFileSync } from 'node:fs';
import { Document, parseAllDocuments } from 'yaml';

const objects = parseAllDocuments(readFileSync(0, 'utf8'))
  .map((d) => d.toJS())
  .filter(Boolean);

const fail = (message) => {
  process.stderr.write(`values-from-kustomize: ${message}\n`);
  process.exit(1);
};
/** The object's fields other than `known`; any left over is a field the chart cannot render. */
function rest(where, obj, known) {
  const left = Object.keys(obj ?? {}).filter((k) => !known.includes(k));
  if (left.length > 0) fail(`${where}: ${left.join(', ')} not expressed by the chart`);
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const byKind = (kind) => objects.filter((o) => o.kind === kind);
const named = (kind, name) => objects.find((o) => o.kind === kind && o.metadata.name === name);
// kustomize's configMapGenerator adds a content hash to each name
const unhashed = (name) => name.replace(/-[a-z0-9]{10}$/, '');

const PART_OF = { 'app.kubernetes.io/part-of': 'relay' };

/** The RabbitMQ URL's Secret key, for KEDA's triggers. */
function readTriggerAuthentication() {
  const [ta, ...more] = byKind('TriggerAuthentication');
  const [ref, ...refs] = ta?.spec.secretTargetRef ?? [];
  if (!ta || more.length || refs.length || ref.parameter !== 'host')
    fail('one TriggerAuthentication with the RabbitMQ URL as `host` expected');
  return { name: ta.metadata.name, key: ref.key };
}

const triggerAuthentication = readTriggerAuthentication();

// the one Secret every service reads, and the image (one for all: deploy/Dockerfile)
let secretName;
let image;
let podSecurityContext;
let containerSecurityContext;
const services = {};
const config = {};
for (const cm of byKind('ConfigMap')) {
  rest(`ConfigMap ${cm.metadata.name}`, cm, ['apiVersion', 'kind', 'metadata', 'data']);
  config[unhashed(cm.metadata.name)] = cm.data ?? {};
}

for (const d of byKind('Deployment')) {
  const name = d.metadata.name;
  const where = `Deployment ${name}`;
  const labels = d.metadata.labels;
  const pod = d.spec.template.spec;
  const [c, ...others] = pod.containers;
  if (others.length > 0 || c.name !== name) fail(`${where}: one container named as the Deployment expected`);
  rest(where, d.spec, ['replicas', 'selector', 'strategy', 'template']);
  rest(`${where} pod`, pod, [
    'automountServiceAccountToken',
    'containers',
    'enableServiceLinks',
    'securityContext',
    'serviceAccountName',
    'terminationGracePeriodSeconds',
  ]);
  rest(`${where} container`, c, [
    'command',
    'env',
    'envFrom',
    'image',
    'imagePullPolicy',
    'lifecycle',
    'livenessProbe',
    'name',
    'ports',
    'readinessProbe',
    'resources',
    'securityContext',
    'startupProbe',
  ]);
  if (pod.automountServiceAccountToken !== false || pod.enableServiceLinks !== false)
    fail(`${where}: automountServiceAccountToken and enableServiceLinks false expected`);
  const secretEnv = [];
  for (const e of c.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    if (!ref || ref.key !== e.name) fail(`${where}: env ${e.name} is not a key of the Secret of the same name`);
    if (secretName !== undefined && ref.name !== secretName) fail(`${where}: a second Secret ${ref.name}`);
    secretName = ref.name;
    secretEnv.push(e.name);
  }
  for (const [what, value, seen] of [
    ['image', { ref: c.image, pullPolicy: c.imagePullPolicy }, image],
    ['pod securityContext', pod.securityContext, podSecurityContext],
    ['container securityContext', c.securityContext, containerSecurityContext],
  ])
    if (seen !== undefined && !same(seen, value)) fail(`${where}: its ${what} differs from another Deployment's`);
  image = { ref: c.image, pullPolicy: c.imagePullPolicy };
  podSecurityContext = pod.securityContext;
  containerSecurityContext = c.securityContext;

  const pdb = named('PodDisruptionBudget', name);
  const hpa = named('HorizontalPodAutoscaler', name);
  const scaled = named('ScaledObject', name);
  const svc = {
    component: labels['app.kubernetes.io/component'],
    replicas: d.spec.replicas ?? null,
    command: c.command,
    configMaps: (c.envFrom ?? []).map((f) => unhashed(f.configMapRef.name)),
    secretEnv,
    ports: c.ports,
    startupProbe: c.startupProbe ?? null,
    livenessProbe: c.livenessProbe ?? null,
    readinessProbe: c.readinessProbe ?? null,
    resources: c.resources,
    lifecycle: c.lifecycle ?? null,
    terminationGracePeriodSeconds: pod.terminationGracePeriodSeconds,
    strategy: d.spec.strategy,
    podAnnotations: d.spec.template.metadata.annotations ?? {},
    podDisruptionBudget: pdb ? { maxUnavailable: pdb.spec.maxUnavailable } : null,
    services: objects
      .filter((o) => o.kind === 'Service' && o.spec.selector?.['app.kubernetes.io/name'] === name)
      .map((s) => {
        rest(`Service ${s.metadata.name}`, s.spec, ['ports', 'selector']);
        return { name: s.metadata.name, ports: s.spec.ports };
      }),
    hpa: null,
    keda: null,
  };
  if (pdb) rest(`PodDisruptionBudget ${name}`, pdb.spec, ['maxUnavailable', 'selector']);
  if (hpa) {
    rest(`HorizontalPodAutoscaler ${name}`, hpa.spec, ['minReplicas', 'maxReplicas', 'metrics', 'scaleTargetRef']);
    svc.hpa = { minReplicas: hpa.spec.minReplicas, maxReplicas: hpa.spec.maxReplicas, metrics: hpa.spec.metrics };
  }
  if (scaled) svc.keda = scaledObjectValues(scaled, config['relay-common']?.RELAY_NAMESPACE);
  services[name] = svc;
}

/** A ScaledObject's settings, each RabbitMQ trigger as its queue without the namespace prefix. */
function scaledObjectValues(so, namespace) {
  const where = `ScaledObject ${so.metadata.name}`;
  rest(where, so.spec, ['minReplicaCount', 'maxReplicaCount', 'pollingInterval', 'scaleTargetRef', 'triggers']);
  const queues = so.spec.triggers.map((t) => {
    const m = t.metadata;
    if (
      t.type !== 'rabbitmq' ||
      m.protocol !== 'amqp' ||
      m.mode !== 'QueueLength' ||
      t.authenticationRef?.name !== triggerAuthentication.name ||
      !m.queueName.startsWith(`${namespace}.`)
    )
      fail(`${where}: a trigger other than a RabbitMQ queue length under RELAY_NAMESPACE`);
    return { queue: m.queueName.slice(namespace.length + 1), value: m.value };
  });
  return {
    minReplicaCount: so.spec.minReplicaCount,
    maxReplicaCount: so.spec.maxReplicaCount,
    pollingInterval: so.spec.pollingInterval,
    queues,
  };
}

const sa = byKind('ServiceAccount');
if (sa.length !== 1 || sa[0].automountServiceAccountToken !== false) fail('one ServiceAccount without a token expected');
const metrics = named('Service', 'relay-metrics');
if (!metrics) fail('the Service relay-metrics over every pod’s health port expected');
rest('Service relay-metrics', metrics.spec, ['clusterIP', 'ports', 'selector']);
if (!same(metrics.spec.selector, PART_OF)) fail('Service relay-metrics: selects every Relay pod expected');

const known = new Set(['Service', 'ConfigMap', 'Deployment', 'PodDisruptionBudget', 'HorizontalPodAutoscaler']);
for (const o of objects)
  if (!known.has(o.kind) && !['ScaledObject', 'TriggerAuthentication', 'ServiceAccount'].includes(o.kind))
    fail(`${o.kind} ${o.metadata.name}: a kind the chart does not render`);

const [repository, tag] = image.ref.split(':');
const values = {
  image: { repository, tag, pullPolicy: image.pullPolicy },
  existingSecret: secretName,
  serviceAccount: { name: sa[0].metadata.name },
  podSecurityContext,
  containerSecurityContext,
  config,
  metricsService: { enabled: true, name: metrics.metadata.name, clusterIP: metrics.spec.clusterIP, ports: metrics.spec.ports },
  keda: { enabled: true, triggerAuthentication },
  services,
};

const doc = new Document(values);
doc.commentBefore = [
  ' Relay’s Helm chart: default values. GENERATED from the kustomize base, do not edit by hand:',
  '   kubectl kustomize deploy/k8s/base | node deploy/helm/values-from-kustomize.mjs > deploy/helm/relay/values.yaml',
  ' Override them in a values file of your own (docs/operations.md "Helm"). What each means:',
  ' image: the one image every service runs (deploy/Dockerfile).',
  ' existingSecret: the Secret, created beforehand, whose keys named in services.*.secretEnv the services read.',
  ' config: the ConfigMaps (name → variables, .env.example) each service reads through services.*.configMaps.',
  ' keda: ScaledObjects for services with `keda` settings (their queues, under RELAY_NAMESPACE); off: no',
  '   ScaledObject or TriggerAuthentication, and `replicas` (default 1) applies to those services.',
  ' services.*: replicas, resources, probes on the health port, ports (health serves /metrics), lifecycle,',
  '   the HPA (hpa), the PodDisruptionBudget and the Services routing to each Deployment.',
].join('\n');
process.stdout.write(doc.toString({ lineWidth: 0 }));
