import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ACTIVITY_PARTITIONS, brokerNames } from '@relay/contracts';
import type { DeliveryChannel } from '@relay/contracts';
import { KUSTOMIZATIONS, objectsOf, render } from './k8s-render';
import type { K8sObject, KustomizationName } from './k8s-render';
import { environmentOf, named, ofKind, valueOf } from './k8s-objects';
import type { Container, Deployment, HorizontalPodAutoscaler, ScaledObject, TriggerAuthentication } from './k8s-objects';
import { ROOT, deployedNames, loadConfigSpec, programOf } from './service-specs';

// How the rendered manifests scale and where their secrets come from: the gateway on CPU (an
// HPA), the deliverers on the depth of their own RabbitMQ work queue (KEDA), the activity-writers
// on the depth of the activity partitions (KEDA), up to one per partition; no Secret or credential inside; settings several services share agree.

const SECRET = 'relay-secrets';
/** Deliverers and the channel whose work queue they consume (libs/contracts/src/names.ts). */
const DELIVERERS: Record<string, DeliveryChannel> = { 'webhook-deliverer': 'webhook', 'chat-deliverer': 'chat', 'outputs-deliverer': 'outputs' };
/**
 * Variables whose value must be one across every service that reads them, and why:
 * names of queues and keys; a queue argument RabbitMQ refuses to see declared two ways; the
 * retention the API lists and the writer keeps; the ingest URL the API hands out and the
 * gateway checks signatures against; the keys the API seals with and the others open with.
 */
const AGREE = ['RELAY_NAMESPACE', 'BROKER_DELIVERY_LIMIT', 'ACTIVITY_RETENTION_DAYS', 'PUBLIC_BASE_URL', 'SECRETS_KEYS'];
/** A URL with a password in it: `scheme://user:password@host`. */
const CREDENTIAL_URL = /\/\/[^/\s:@]*:[^/\s@]+@/;

const NAMES = Object.keys(KUSTOMIZATIONS) as KustomizationName[];
// every deployment (each deliverer channel apart), read through the program it runs
const SERVICES = deployedNames();

const targetsOf = (objects: readonly K8sObject[]): { by: string; kind: string; target: string }[] => [
  ...ofKind<HorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler').map((h) => ({ by: `HorizontalPodAutoscaler/${h.metadata.name}`, kind: h.spec.scaleTargetRef.kind ?? '', target: h.spec.scaleTargetRef.name })),
  ...ofKind<ScaledObject>(objects, 'ScaledObject').map((s) => ({ by: `ScaledObject/${s.metadata.name}`, kind: s.spec.scaleTargetRef.kind ?? 'Deployment', target: s.spec.scaleTargetRef.name })),
];

const strings = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(strings) : [];

describe.each(NAMES)('deploy/k8s %s', (kustomization) => {
  const objects = objectsOf(render(kustomization));
  const deployment = (name: string) => named<Deployment>(objects, 'Deployment', name);
  const envOf = (name: string) => environmentOf(deployment(name).spec.template.spec.containers[0] as Container, objects);

  it('holds no Secret and no credential: the operator creates relay-secrets, the manifests only reference it', () => {
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    expect(objects.flatMap(strings).filter((s) => CREDENTIAL_URL.test(s))).toEqual([]);
    const secretVars = new Set(SERVICES.flatMap((s) => Object.values(loadConfigSpec(programOf(s))).filter((v) => v.secret).map((v) => v.env)));
    const inConfigMaps = ofKind<K8sObject & { data?: Record<string, string> }>(objects, 'ConfigMap').flatMap((c) => Object.keys(c.data ?? {}));
    expect(inConfigMaps.filter((k) => secretVars.has(k))).toEqual([]);
  });

  it("lets the management API run test requests on a gateway's health port, through a Service, and publish resends (RABBITMQ_URL from the Secret)", () => {
    const env = envOf('management-api');
    const url = new URL((env.get('GATEWAY_INTERNAL_URL') as { value: string }).value);
    const service = named<K8sObject & { spec: { selector: Record<string, string>; ports: { port: number; targetPort: string }[] } }>(objects, 'Service', url.hostname);
    expect(service.spec.selector['app.kubernetes.io/name']).toBe('ingest-gateway');
    const port = service.spec.ports.find((p) => p.port === Number(url.port))!;
    const gateway = deployment('ingest-gateway').spec.template.spec.containers[0] as Container & { ports: { name: string; containerPort: number }[] };
    expect(gateway.ports.find((p) => p.name === port.targetPort)?.containerPort).toBe(Number((envOf('ingest-gateway').get('HEALTH_PORT') as { value: string }).value));
    expect(env.get('RABBITMQ_URL')).toEqual({ secret: { name: SECRET, key: 'RABBITMQ_URL' } });
  });

  it('tells the management API where the dashboard it serves is (DASHBOARD_URL: alerts link into it)', () => {
    const value = (envOf('management-api').get('DASHBOARD_URL') as { value: string } | undefined)?.value;
    expect(value).toBeDefined();
    expect(['http:', 'https:']).toContain(new URL(value!).protocol);
  });

  it('scales the gateway with a plain HPA on CPU utilization, leaving it the replica count', () => {
    const hpas = ofKind<HorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler').filter((h) => h.spec.scaleTargetRef.name === 'ingest-gateway');
    expect(hpas).toHaveLength(1);
    const hpa = hpas[0]!;
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'ingest-gateway' });
    expect(hpa.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: expect.any(Number) } } }]);
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas!);
    expect(deployment('ingest-gateway').spec.replicas).toBeUndefined();
  });

  describe.each(Object.entries(DELIVERERS))('%s', (service, channel) => {
    const scaledObjects = ofKind<ScaledObject>(objects, 'ScaledObject').filter((s) => s.spec.scaleTargetRef.name === service);

    it(`scales on the depth of its work queue (<RELAY_NAMESPACE>.deliveries.${channel}), through KEDA's RabbitMQ scaler`, () => {
      expect(scaledObjects).toHaveLength(1);
      const { spec } = scaledObjects[0]!;
      const namespace = valueOf(loadConfigSpec(programOf(service)), envOf(service), 'RELAY_NAMESPACE')!;
      expect(spec.triggers).toEqual([
        {
          type: 'rabbitmq',
          metadata: { protocol: 'amqp', mode: 'QueueLength', value: expect.stringMatching(/^[1-9]\d*$/), queueName: brokerNames(namespace).deliveryQueue(channel) },
          authenticationRef: { name: expect.any(String) },
        },
      ]);
      expect(spec.scaleTargetRef.kind ?? 'Deployment').toBe('Deployment');
    });

    it('never scales to zero (retries come back to the work queue on their own) and leaves KEDA the replica count', () => {
      const { spec } = scaledObjects[0]!;
      expect(spec.minReplicaCount).toBeGreaterThanOrEqual(1);
      expect(spec.maxReplicaCount).toBeGreaterThan(spec.minReplicaCount!);
      expect(deployment(service).spec.replicas).toBeUndefined();
    });

    it(`reads the queue with the RabbitMQ URL from the Secret ${SECRET}, through a TriggerAuthentication`, () => {
      const auth = named<TriggerAuthentication>(objects, 'TriggerAuthentication', scaledObjects[0]!.spec.triggers[0]!.authenticationRef!.name);
      expect(auth.spec).toEqual({ secretTargetRef: [{ parameter: 'host', name: SECRET, key: 'RABBITMQ_URL' }] });
      expect(envOf(service).get('RABBITMQ_URL')).toEqual({ secret: { name: SECRET, key: 'RABBITMQ_URL' } });
    });
  });

  it('scales the activity-writers on the depth of every activity partition queue, through KEDA, from 1 up to the partition count', () => {
    const scaled = ofKind<ScaledObject>(objects, 'ScaledObject').filter((s) => s.spec.scaleTargetRef.name === 'activity-writer');
    expect(scaled).toHaveLength(1);
    const { spec } = scaled[0]!;
    const namespace = valueOf(loadConfigSpec(programOf('activity-writer')), envOf('activity-writer'), 'RELAY_NAMESPACE')!;
    expect(spec.triggers.map((t) => t.metadata.queueName)).toEqual(brokerNames(namespace).activityPartitionQueues);
    for (const t of spec.triggers) expect(t).toEqual({ type: 'rabbitmq', metadata: { protocol: 'amqp', mode: 'QueueLength', value: expect.stringMatching(/^[1-9]\d*$/), queueName: expect.any(String) }, authenticationRef: { name: expect.any(String) } });
    expect(spec.minReplicaCount).toBeGreaterThanOrEqual(1);
    expect(spec.maxReplicaCount).toBe(ACTIVITY_PARTITIONS);
    const writer = deployment('activity-writer');
    expect([writer.spec.replicas, writer.spec.strategy?.type]).toEqual([undefined, undefined]);
  });

  it('has each autoscaler target a rendered Deployment, and no Deployment under two autoscalers', () => {
    const targets = targetsOf(objects);
    expect(targets.filter((t) => t.kind !== 'Deployment' || !objects.some((o) => o.kind === 'Deployment' && o.metadata.name === t.target))).toEqual([]);
    expect(new Set(targets.map((t) => t.target)).size).toBe(targets.length);
    expect(targets.map((t) => t.target).sort()).toEqual(['activity-writer', 'chat-deliverer', 'ingest-gateway', 'outputs-deliverer', 'webhook-deliverer']);
  });

  it.each(AGREE)('sets %s to one value in every service that reads it', (variable) => {
    const readers = SERVICES.filter((s) => Object.values(loadConfigSpec(programOf(s))).some((v) => v.env === variable));
    const seen = new Set(readers.map((s) => {
      const source = envOf(s).get(variable);
      return source ? JSON.stringify(source) : `default ${valueOf(loadConfigSpec(programOf(s)), new Map(), variable)}`;
    }));
    expect(readers.length).toBeGreaterThan(1);
    expect([...seen]).toHaveLength(1);
  });
});

describe('deploy/k8s overlays/production', () => {
  const objects = objectsOf(render('production'));

  it('puts everything in the namespace relay, which enforces Pod Security "restricted"', () => {
    const namespaced = objects.filter((o) => o.kind !== 'Namespace');
    expect(namespaced.filter((o) => o.metadata.namespace !== 'relay').map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([]);
    expect(named(objects, 'Namespace', 'relay').metadata.labels).toMatchObject({ 'pod-security.kubernetes.io/enforce': 'restricted' });
  });

  it("links alerts to the dashboard's public https address (DASHBOARD_URL), not the in-cluster Service", () => {
    const env = environmentOf(named<Deployment>(objects, 'Deployment', 'management-api').spec.template.spec.containers[0] as Container, objects);
    const url = new URL((env.get('DASHBOARD_URL') as { value: string }).value);
    expect(url.protocol).toBe('https:');
    expect(url.hostname).toContain('.');
  });

  it('runs one registry image for every service, not the local build', () => {
    const images = new Set(ofKind<Deployment>(objects, 'Deployment').map((d) => d.spec.template.spec.containers[0]!.image));
    expect([...images]).toEqual([expect.stringMatching(/^[^/]+\/.*relay:[\w.-]+$/)]);
    expect([...images][0]).not.toMatch(/:local$/);
  });

  it('keeps two or more of every service, so one lost pod is not an outage (a second activity-writer takes the partitions at once)', () => {
    const least: Record<string, number | undefined> = {
      'activity-writer': named<ScaledObject>(objects, 'ScaledObject', 'activity-writer').spec.minReplicaCount,
      'management-api': named<Deployment>(objects, 'Deployment', 'management-api').spec.replicas,
      'ingest-gateway': named<HorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler', 'ingest-gateway').spec.minReplicas,
      ...Object.fromEntries(Object.keys(DELIVERERS).map((d) => [d, named<ScaledObject>(objects, 'ScaledObject', d).spec.minReplicaCount])),
    };
    expect(Object.entries(least).filter(([, n]) => (n ?? 1) < 2)).toEqual([]);
  });
});

describe('the docs on how many activity-writers help', () => {
  const docs = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  const text = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
  const maxWriters = NAMES.map((k) => named<ScaledObject>(objectsOf(render(k)), 'ScaledObject', 'activity-writer').spec.maxReplicaCount);

  it('name the limit the manifests scale to, and never a single writer per store', () => {
    const limits = docs.flatMap((file) =>
      [...text(file).matchAll(/\bwriters\b[^.|]{0,20}\bup to (\d+)|\bup to (\d+) writers\b/gi)].map((m) => ({ file, limit: Number(m[1] ?? m[2]) })),
    );
    expect(limits.length).toBeGreaterThan(0);
    expect(limits.filter((l) => !maxWriters.every((max) => max === l.limit))).toEqual([]);
    expect(docs.filter((file) => /one writer per store|do not add a second/i.test(text(file)))).toEqual([]);
  });
});
