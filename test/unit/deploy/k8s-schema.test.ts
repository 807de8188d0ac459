import { KUSTOMIZATIONS, objectsOf, render, toYaml, validate } from './k8s-render';
import type { K8sObject, KustomizationName, Validation } from './k8s-render';

// The "Real parts": the manifests are rendered by a real kustomize (Debian's kubectl 1.20)
// and every object is validated against the Kubernetes API schemas (v1.34, strict, vendored in
// deploy/k8s/schemas) or KEDA's (v2.19.0, @kubernetes-models/keda) by deploy/k8s/validate.mjs,
// offline. The validator's own tests below show it rejects what the API server would.

const NAMES = Object.keys(KUSTOMIZATIONS) as KustomizationName[];
// the activity-writer, gateway and API, and the deliverer program on each of its three channels
const RELAY_SERVICES = ['activity-writer', 'chat-deliverer', 'ingest-gateway', 'management-api', 'outputs-deliverer', 'webhook-deliverer'];

describe.each(NAMES)('deploy/k8s %s, rendered by kubectl kustomize', (name) => {
  let objects: K8sObject[] = [];
  let status: number | null = null;
  let results: Validation[] = [];

  beforeAll(() => {
    const yaml = render(name);
    objects = objectsOf(yaml);
    ({ status, results } = validate(yaml));
  }, 60_000);

  it('renders a Deployment for each of the five services and the outputs deliverer', () => {
    const deployments = objects.filter((o) => o.kind === 'Deployment').map((o) => o.metadata.name);
    expect(deployments.sort()).toEqual(RELAY_SERVICES);
  });

  it('passes the validator: every object valid against the Kubernetes v1.34 strict or the KEDA schema', () => {
    const failed = results.filter((r) => r.errors.length > 0).map((r) => `${r.kind}/${r.name}: ${r.errors.join('; ')}`);
    expect(failed).toEqual([]);
    expect(status).toBe(0);
  });

  it('has every object checked by a schema, none skipped', () => {
    expect(results.map((r) => `${r.kind}/${r.name}`)).toEqual(objects.map((o) => `${o.kind}/${o.metadata.name}`));
    expect(results.filter((r) => r.schema === null)).toEqual([]);
    const keda = results.filter((r) => r.apiVersion === 'keda.sh/v1alpha1');
    expect(keda.map((r) => r.kind).sort()).toEqual(['ScaledObject', 'ScaledObject', 'ScaledObject', 'ScaledObject', 'TriggerAuthentication']);
    expect(keda.every((r) => r.schema?.startsWith('keda v2.19.0'))).toBe(true);
    expect(results.filter((r) => r.apiVersion !== 'keda.sh/v1alpha1').every((r) => r.schema === 'kubernetes v1.34 strict')).toBe(true);
  });
});

describe('deploy/k8s/validate.mjs', () => {
  let objects: K8sObject[] = [];
  beforeAll(() => {
    objects = objectsOf(render('base'));
  }, 60_000);
  const one = (kind: string, name: string): Record<string, unknown> => {
    const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
    if (!found) throw new Error(`${kind}/${name} not rendered`);
    return structuredClone(found);
  };
  const errorsOf = (obj: unknown): string[] => {
    const { status, results } = validate(toYaml([obj]));
    expect(status).toBe(1);
    return results[0]?.errors ?? [];
  };

  it('rejects a field the API type does not have (strict), as kubectl apply --validate=strict does', () => {
    const deployment = one('Deployment', 'ingest-gateway') as { spec: { template: { spec: { containers: Record<string, unknown>[] } } } };
    const container = deployment.spec.template.spec.containers[0]!;
    container.readinesProbe = container.readinessProbe;
    delete container.readinessProbe;
    expect(errorsOf(deployment)).toContain('/spec/template/spec/containers/0 must NOT have additional properties (readinesProbe)');
  });

  it('rejects a value of the wrong type', () => {
    const pdb = one('PodDisruptionBudget', 'activity-writer') as { spec: Record<string, unknown> };
    pdb.spec.selector = 'app=activity-writer';
    expect(errorsOf(pdb).join('\n')).toMatch(/^\/spec\/selector must be object/m);
  });

  it("checks a ScaledObject against KEDA's schema: integer replica counts, string trigger metadata", () => {
    const scaled = one('ScaledObject', 'webhook-deliverer') as { spec: { minReplicaCount: unknown; triggers: { metadata: Record<string, unknown> }[] } };
    scaled.spec.minReplicaCount = 'two';
    scaled.spec.triggers[0]!.metadata.value = 1000;
    expect(errorsOf(scaled).sort()).toEqual(['/spec/minReplicaCount must be integer', '/spec/triggers/0/metadata/value must be string']);
  });

  it('checks a TriggerAuthentication against KEDA\'s schema: a secretTargetRef needs its key', () => {
    const auth = one('TriggerAuthentication', 'relay-rabbitmq') as { spec: { secretTargetRef: Record<string, unknown>[] } };
    delete auth.spec.secretTargetRef[0]!.key;
    expect(errorsOf(auth)).toEqual(['/spec/secretTargetRef/0 must have required property key']);
  });

  it('fails an object of a kind it has no schema for, rather than passing it unchecked', () => {
    expect(errorsOf({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })).toEqual([
      'no schema for example.com/v1 Widget: nothing can check this object',
    ]);
  });

  it('fails when given nothing to validate', () => {
    const { status, results } = validate('');
    expect([status, results]).toEqual([1, []]);
  });
});
