"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const config_1 = require("@relay/config");
const telemetry_1 = require("@relay/telemetry");
const k8s_render_1 = require("./k8s-render");
const k8s_objects_1 = require("./k8s-objects");
const service_specs_1 = require("./service-specs");
// Each service's Deployment, as rendered (base and production overlay), against what its code
// reads and does: the environment against its config spec (as compose.test.ts does for
// docker-compose.yml), probes on HEALTH_PORT, a termination grace above SHUTDOWN_GRACE_MS, a
// PodDisruptionBudget, requests and limits, and a locked-down pod. Schemas: k8s-schema.test.ts.
/** onShutdown (libs/runtime/src/lifecycle.ts) exits this long past SHUTDOWN_GRACE_MS if a close hangs. */
const SHUTDOWN_FORCE_MARGIN_MS = 2000;
/** The Secret every secret variable comes from, created by the operator (docs/operations.md). */
const SECRET = 'relay-secrets';
/** The image deploy/Dockerfile builds (docker-compose.yml tags it relay:local). */
const IMAGE = /^(.+\/)?relay:[\w.-]+$/;
/** Reached through a Service: they wait in preStop until endpoints have dropped the pod. */
const SERVED = ['ingest-gateway', 'management-api'];
/**
 * The gateway's readiness is /healthz: it rides out Redis and MongoDB outages and answers broker
 * outages with its own 503 + Retry-After, which /readyz-driven removal from the Service would
 * turn into a total outage (deploy/k8s/base/ingest-gateway.yaml). Every other service: /readyz.
 */
const READINESS_PATH = { 'ingest-gateway': '/healthz' };
const NAMES = Object.keys(k8s_render_1.KUSTOMIZATIONS);
// every service with a config spec, and each program run again on another channel (outputs-deliverer)
const SERVICES = (0, service_specs_1.deployedNames)();
describe.each(NAMES)('deploy/k8s %s', (kustomization) => {
    const objects = (0, k8s_render_1.objectsOf)((0, k8s_render_1.render)(kustomization));
    const deployments = (0, k8s_objects_1.ofKind)(objects, 'Deployment');
    it('runs every service that has a config spec, and nothing else', () => {
        expect(deployments.map((d) => d.metadata.name).sort()).toEqual(SERVICES);
    });
    describe.each(SERVICES)('%s', (service) => {
        const spec = (0, service_specs_1.loadConfigSpec)((0, service_specs_1.programOf)(service));
        const deployment = (0, k8s_objects_1.named)(objects, 'Deployment', service);
        const pod = deployment.spec.template.spec;
        const container = pod.containers[0];
        const env = (0, k8s_objects_1.environmentOf)(container, objects);
        const healthPort = Number((0, k8s_objects_1.valueOf)(spec, env, 'HEALTH_PORT'));
        it('runs one container, from the image deploy/Dockerfile builds, with node services/<program>/dist/main.js', () => {
            expect(pod.containers.map((c) => c.name)).toEqual([service]);
            expect(pod.initContainers).toBeUndefined();
            expect(container.image).toMatch(IMAGE);
            expect([...(container.command ?? []), ...(container.args ?? [])]).toEqual(['node', `services/${(0, service_specs_1.programOf)(service)}/dist/main.js`]);
        });
        it('sets only variables its configSpec reads (and, traced services, the tracing variables)', () => {
            const reads = new Set([...(0, config_1.envNames)(spec), ...((0, service_specs_1.traces)(service) ? telemetry_1.TRACING_ENV : [])]);
            expect([...env.keys()].filter((name) => !reads.has(name))).toEqual([]);
        });
        it('sets every variable its configSpec requires (no default)', () => {
            const required = Object.values(spec).filter((v) => v.default === undefined).map((v) => v.env);
            expect(required.filter((name) => !env.has(name))).toEqual([]);
        });
        it(`takes every secret variable from the Secret ${SECRET}, key by key under its own name, never a literal`, () => {
            const secrets = new Set(Object.values(spec).filter((v) => v.secret).map((v) => v.env));
            for (const [name, source] of env) {
                if (secrets.has(name))
                    expect({ name, source }).toEqual({ name, source: { secret: { name: SECRET, key: name } } });
                else
                    expect({ name, source }).toEqual({ name, source: expect.objectContaining({ value: expect.any(String) }) });
            }
        });
        it((0, service_specs_1.traces)(service) ? `traces only where the kustomization names a collector (${kustomization === 'tracing' ? 'on' : 'off'} here)` : 'is not traced: no tracing variable', () => {
            const tracing = Object.fromEntries(telemetry_1.TRACING_ENV.flatMap((name) => {
                const source = env.get(name);
                return source ? [[name, 'value' in source ? source.value : JSON.stringify(source)]] : [];
            }));
            if (!(0, service_specs_1.traces)(service)) {
                expect(tracing).toEqual({});
                return;
            }
            // the one test the service itself makes (libs/telemetry), on what the kubelet would give it
            expect((0, telemetry_1.tracingEnabled)(tracing)).toBe(kustomization === 'tracing');
            if (kustomization === 'tracing')
                expect(new URL(tracing.OTEL_EXPORTER_OTLP_ENDPOINT).protocol).toBe('http:');
        });
        it('reads only config maps of its own namespace', () => {
            const maps = (container.envFrom ?? []).flatMap((f) => (f.configMapRef ? [(0, k8s_objects_1.named)(objects, 'ConfigMap', f.configMapRef.name)] : []));
            expect(maps.map((m) => [m.metadata.name, m.metadata.namespace])).toEqual(maps.map((m) => [m.metadata.name, deployment.metadata.namespace]));
        });
        it('listens on every interface of the pod (HOST 0.0.0.0), so the kubelet reaches its probes', () => {
            expect((0, k8s_objects_1.valueOf)(spec, env, 'HOST')).toBe('0.0.0.0');
        });
        it('declares HEALTH_PORT as the `health` port and PORT, if it has one, as `http`', () => {
            expect((0, k8s_objects_1.portNumber)(container, 'health')).toBe(healthPort);
            const port = (0, k8s_objects_1.valueOf)(spec, env, 'PORT');
            expect((0, k8s_objects_1.portNumber)(container, 'http')).toBe(port === undefined ? undefined : Number(port));
            expect(deployment.spec.template.metadata.annotations?.['prometheus.io/port']).toBe(String(healthPort));
        });
        it(`probes /healthz (startup, liveness) and ${READINESS_PATH[service] ?? '/readyz'} (readiness) on HEALTH_PORT`, () => {
            const probes = { startup: container.startupProbe, liveness: container.livenessProbe, readiness: container.readinessProbe };
            const seen = Object.fromEntries(Object.entries(probes).map(([kind, p]) => [kind, `${p?.httpGet?.path} :${(0, k8s_objects_1.portNumber)(container, p?.httpGet?.port)}`]));
            expect(seen).toEqual({
                startup: `/healthz :${healthPort}`,
                liveness: `/healthz :${healthPort}`,
                readiness: `${READINESS_PATH[service] ?? '/readyz'} :${healthPort}`,
            });
        });
        it('gives SIGTERM more time than preStop + SHUTDOWN_GRACE_MS + the service\'s own 2 s margin', () => {
            const graceMs = Number((0, k8s_objects_1.valueOf)(spec, env, 'SHUTDOWN_GRACE_MS'));
            const preStopMs = (container.lifecycle?.preStop?.sleep?.seconds ?? 0) * 1000;
            expect(container.lifecycle?.preStop?.exec).toBeUndefined();
            expect(graceMs).toBeGreaterThan(0);
            expect((pod.terminationGracePeriodSeconds ?? 30) * 1000).toBeGreaterThan(preStopMs + graceMs + SHUTDOWN_FORCE_MARGIN_MS);
        });
        it(SERVED.includes(service) ? 'waits in preStop for endpoints to drop the pod before SIGTERM' : 'stops at once: no Service routes to it', () => {
            const sleep = container.lifecycle?.preStop?.sleep?.seconds;
            if (SERVED.includes(service))
                expect(sleep).toBeGreaterThanOrEqual(5);
            else
                expect(sleep).toBeUndefined();
            const routing = (0, k8s_objects_1.ofKind)(objects, 'Service').filter((s) => s.spec.clusterIP !== 'None' && (0, k8s_objects_1.selects)(s.spec.selector, deployment.spec.template.metadata.labels));
            expect(routing.length > 0).toBe(SERVED.includes(service));
        });
        it('has a PodDisruptionBudget over its pods that lets a drain evict one at a time', () => {
            const pdbs = (0, k8s_objects_1.ofKind)(objects, 'PodDisruptionBudget').filter((p) => (0, k8s_objects_1.selects)(p.spec.selector.matchLabels, deployment.spec.template.metadata.labels));
            expect(pdbs.map((p) => [p.metadata.name, p.spec.maxUnavailable, p.spec.minAvailable])).toEqual([[service, 1, undefined]]);
            expect((0, k8s_objects_1.selects)(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels)).toBe(true);
        });
        it('requests and limits CPU and memory, requests within limits', () => {
            const { requests = {}, limits = {} } = container.resources ?? {};
            for (const r of ['cpu', 'memory']) {
                expect({ [r]: [requests[r], limits[r]] }).toEqual({ [r]: [expect.any(String), expect.any(String)] });
                expect((0, k8s_objects_1.quantity)(requests[r])).toBeLessThanOrEqual((0, k8s_objects_1.quantity)(limits[r]));
            }
        });
        it("runs as the image's non-root user on a read-only root, no privilege escalation, no capabilities, no API token", () => {
            expect(pod.securityContext).toEqual({ runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } });
            expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
            expect([pod.automountServiceAccountToken, pod.enableServiceLinks, pod.hostNetwork]).toEqual([false, false, undefined]);
            expect((0, k8s_objects_1.named)(objects, 'ServiceAccount', pod.serviceAccountName ?? 'default')).toMatchObject({ automountServiceAccountToken: false });
        });
    });
});
//# sourceMappingURL=k8s-manifests.test.js.map