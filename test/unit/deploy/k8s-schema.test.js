"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const k8s_render_1 = require("./k8s-render");
// The "Real parts": the manifests are rendered by a real kustomize (Debian's kubectl 1.20)
// and every object is validated against the Kubernetes API schemas (v1.34, strict, vendored in
// deploy/k8s/schemas) or KEDA's (v2.19.0, @kubernetes-models/keda) by deploy/k8s/validate.mjs,
// offline. The validator's own tests below show it rejects what the API server would.
const NAMES = Object.keys(k8s_render_1.KUSTOMIZATIONS);
// the activity-writer, gateway and API, and the deliverer program on each of its three channels
const RELAY_SERVICES = ['activity-writer', 'chat-deliverer', 'ingest-gateway', 'management-api', 'outputs-deliverer', 'webhook-deliverer'];
describe.each(NAMES)('deploy/k8s %s, rendered by kubectl kustomize', (name) => {
    let objects = [];
    let status = null;
    let results = [];
    beforeAll(() => {
        const yaml = (0, k8s_render_1.render)(name);
        objects = (0, k8s_render_1.objectsOf)(yaml);
        ({ status, results } = (0, k8s_render_1.validate)(yaml));
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
    let objects = [];
    beforeAll(() => {
        objects = (0, k8s_render_1.objectsOf)((0, k8s_render_1.render)('base'));
    }, 60_000);
    const one = (kind, name) => {
        const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
        if (!found)
            throw new Error(`${kind}/${name} not rendered`);
        return structuredClone(found);
    };
    const errorsOf = (obj) => {
        const { status, results } = (0, k8s_render_1.validate)((0, k8s_render_1.toYaml)([obj]));
        expect(status).toBe(1);
        return results[0]?.errors ?? [];
    };
    it('rejects a field the API type does not have (strict), as kubectl apply --validate=strict does', () => {
        const deployment = one('Deployment', 'ingest-gateway');
        const container = deployment.spec.template.spec.containers[0];
        container.readinesProbe = container.readinessProbe;
        delete container.readinessProbe;
        expect(errorsOf(deployment)).toContain('/spec/template/spec/containers/0 must NOT have additional properties (readinesProbe)');
    });
    it('rejects a value of the wrong type', () => {
        const pdb = one('PodDisruptionBudget', 'activity-writer');
        pdb.spec.selector = 'app=activity-writer';
        expect(errorsOf(pdb).join('\n')).toMatch(/^\/spec\/selector must be object/m);
    });
    it("checks a ScaledObject against KEDA's schema: integer replica counts, string trigger metadata", () => {
        const scaled = one('ScaledObject', 'webhook-deliverer');
        scaled.spec.minReplicaCount = 'two';
        scaled.spec.triggers[0].metadata.value = 1000;
        expect(errorsOf(scaled).sort()).toEqual(['/spec/minReplicaCount must be integer', '/spec/triggers/0/metadata/value must be string']);
    });
    it('checks a TriggerAuthentication against KEDA\'s schema: a secretTargetRef needs its key', () => {
        const auth = one('TriggerAuthentication', 'relay-rabbitmq');
        delete auth.spec.secretTargetRef[0].key;
        expect(errorsOf(auth)).toEqual(['/spec/secretTargetRef/0 must have required property key']);
    });
    it('fails an object of a kind it has no schema for, rather than passing it unchecked', () => {
        expect(errorsOf({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })).toEqual([
            'no schema for example.com/v1 Widget: nothing can check this object',
        ]);
    });
    it('fails when given nothing to validate', () => {
        const { status, results } = (0, k8s_render_1.validate)('');
        expect([status, results]).toEqual([1, []]);
    });
});
//# sourceMappingURL=k8s-schema.test.js.map