import { objectsOf, render, toYaml, validate } from './k8s-render';
import type { K8sObject, Validation } from './k8s-render';
import { byName, committedValues, helmLint, helmTemplate, valuesFromKustomize } from './helm-render';

// The Helm chart (deploy/helm/relay, docs/operations.md "Helm"): linted and rendered by a real
// helm (v3.22.0, scripts/helm-tool.sh), its output validated against the Kubernetes v1.34 strict
// and KEDA schemas by deploy/k8s/validate.mjs, and its defaults the kustomize base's
// (decision 0042): the values are generated from the base, and both render the same objects.

const failures = (results: Validation[]): string[] =>
  results.filter((r) => r.errors.length > 0 || r.schema === null).map((r) => `${r.kind}/${r.name}: ${r.errors.join('; ')}`);
const ofKind = (objects: K8sObject[], kind: string): string[] =>
  objects.filter((o) => o.kind === kind).map((o) => o.metadata.name).sort();
const deployment = (objects: K8sObject[], name: string): any =>
  objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name);

describe('deploy/helm/relay', () => {
  let base: string;
  let chart: string;
  beforeAll(() => {
    base = render('base');
    chart = helmTemplate();
  }, 60_000);

  it('passes helm lint --strict', () => {
    const { status, stdout, stderr } = helmLint();
    expect(`${stdout}${stderr}`).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(status).toBe(0);
  });

  it('renders objects every one of which the validator checks and passes', () => {
    const { status, results } = validate(chart);
    expect(failures(results)).toEqual([]);
    expect(results).toHaveLength(objectsOf(chart).length);
    expect(status).toBe(0);
  });

  it('has the values the kustomize base gives: values.yaml is the script’s output, not edited by hand', () => {
    const generated = valuesFromKustomize(base);
    expect(generated.stderr).toBe('');
    expect(committedValues()).toBe(generated.stdout);
  });

  it('renders, with its default values, the same objects as the kustomize base', () => {
    const fromChart = byName(objectsOf(chart));
    const fromBase = byName(objectsOf(base));
    expect(Object.keys(fromChart).sort()).toEqual(Object.keys(fromBase).sort());
    for (const key of Object.keys(fromBase)) expect([key, fromChart[key]]).toEqual([key, fromBase[key]]);
  });

  it('keda off: no ScaledObject or TriggerAuthentication, and a deliverer runs the replicas it is given', () => {
    const yaml = helmTemplate(['keda.enabled=false', 'services.webhook-deliverer.replicas=3']);
    const objects = objectsOf(yaml);
    expect(objects.filter((o) => o.apiVersion.startsWith('keda.sh/'))).toEqual([]);
    expect(deployment(objects, 'webhook-deliverer').spec.replicas).toBe(3);
    // the gateway keeps its HPA, which owns its count
    expect(ofKind(objects, 'HorizontalPodAutoscaler')).toEqual(['ingest-gateway']);
    expect(deployment(objects, 'ingest-gateway').spec.replicas).toBeUndefined();
    expect(failures(validate(yaml).results)).toEqual([]);
  });

  it('takes an operator’s image, Secret, resources, probes and queue namespace', () => {
    const yaml = helmTemplate([
      'image.repository=registry.example.com/relay',
      'image.tag=0.1.0',
      'existingSecret=relay-prod',
      'services.chat-deliverer.resources.limits.memory=1Gi',
      'services.chat-deliverer.readinessProbe.periodSeconds=7',
      'config.relay-common.RELAY_NAMESPACE=prod',
    ]);
    const objects = objectsOf(yaml);
    const chat = deployment(objects, 'chat-deliverer').spec.template.spec.containers[0];
    expect(chat.image).toBe('registry.example.com/relay:0.1.0');
    expect(chat.resources.limits.memory).toBe('1Gi');
    expect(chat.readinessProbe).toMatchObject({ periodSeconds: 7, httpGet: { path: '/readyz', port: 'health' } });
    expect(new Set(chat.env.map((e: any) => e.valueFrom.secretKeyRef.name))).toEqual(new Set(['relay-prod']));
    const scaled: any = objects.find((o) => o.kind === 'ScaledObject' && o.metadata.name === 'chat-deliverer');
    expect(scaled.spec.triggers.map((t: any) => t.metadata.queueName)).toEqual(['prod.deliveries.chat']);
    expect(failures(validate(yaml).results)).toEqual([]);
  });

  it('a changed ConfigMap value changes the checksum of the pods that read it, so they roll', () => {
    const checksum = (yaml: string, name: string): string =>
      deployment(objectsOf(yaml), name).spec.template.metadata.annotations['checksum/config'];
    const changed = helmTemplate(['config.webhook-deliverer-env.SHUTDOWN_GRACE_MS=20000']);
    expect(checksum(changed, 'webhook-deliverer')).not.toBe(checksum(chart, 'webhook-deliverer'));
    expect(checksum(changed, 'chat-deliverer')).toBe(checksum(chart, 'chat-deliverer'));
  });

  it('the values script refuses a base field the chart would drop, naming it', () => {
    const objects = objectsOf(base);
    const d: any = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'management-api');
    d.spec.template.spec.nodeSelector = { pool: 'api' };
    const out = valuesFromKustomize(toYaml(objects));
    expect(out.status).toBe(1);
    expect(out.stderr).toBe('values-from-kustomize: Deployment management-api pod: nodeSelector not expressed by the chart\n');
  });
});
