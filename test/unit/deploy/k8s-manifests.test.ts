import { envNames } from '@relay/config';
import { TRACING_ENV, tracingEnabled } from '@relay/telemetry';
import { KUSTOMIZATIONS, objectsOf, render } from './k8s-render';
import type { KustomizationName } from './k8s-render';
import { environmentOf, named, ofKind, portNumber, quantity, selects, valueOf } from './k8s-objects';
import type { Container, Deployment, PodDisruptionBudget, Service } from './k8s-objects';
import { deployedNames, loadConfigSpec, programOf, traces } from './service-specs';

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
const READINESS_PATH: Record<string, string> = { 'ingest-gateway': '/healthz' };

const NAMES = Object.keys(KUSTOMIZATIONS) as KustomizationName[];
// every service with a config spec, and each program run again on another channel (outputs-deliverer)
const SERVICES = deployedNames();

describe.each(NAMES)('deploy/k8s %s', (kustomization) => {
  const objects = objectsOf(render(kustomization));
  const deployments = ofKind<Deployment>(objects, 'Deployment');

  it('runs every service that has a config spec, and nothing else', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(SERVICES);
  });

  it('runs the activity log on its MongoDB driver (the cluster runs MongoDB 7), the writer and the API alike', () => {
    for (const service of ['activity-writer', 'management-api']) {
      const container = named<Deployment>(objects, 'Deployment', service).spec.template.spec.containers[0] as Container;
      expect(valueOf(loadConfigSpec(programOf(service)), environmentOf(container, objects), 'ACTIVITY_LOG_DRIVER')).toBe('mongodb');
    }
  });

  describe.each(SERVICES)('%s', (service) => {
    const spec = loadConfigSpec(programOf(service));
    const deployment = named<Deployment>(objects, 'Deployment', service);
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0] as Container;
    const env = environmentOf(container, objects);
    const healthPort = Number(valueOf(spec, env, 'HEALTH_PORT'));

    it('runs one container, from the image deploy/Dockerfile builds, with node services/<program>/dist/main.js', () => {
      expect(pod.containers.map((c) => c.name)).toEqual([service]);
      expect(pod.initContainers).toBeUndefined();
      expect(container.image).toMatch(IMAGE);
      expect([...(container.command ?? []), ...(container.args ?? [])]).toEqual(['node', `services/${programOf(service)}/dist/main.js`]);
    });

    it('sets only variables its configSpec reads (and, traced services, the tracing variables)', () => {
      const reads = new Set([...envNames(spec), ...(traces(service) ? TRACING_ENV : [])]);
      expect([...env.keys()].filter((name) => !reads.has(name))).toEqual([]);
    });

    it('sets every variable its configSpec requires (no default)', () => {
      const required = Object.values(spec).filter((v) => v.default === undefined).map((v) => v.env);
      expect(required.filter((name) => !env.has(name))).toEqual([]);
    });

    it(`takes every secret variable from the Secret ${SECRET}, key by key under its own name, never a literal`, () => {
      const secrets = new Set(Object.values(spec).filter((v) => v.secret).map((v) => v.env));
      for (const [name, source] of env) {
        if (secrets.has(name)) expect({ name, source }).toEqual({ name, source: { secret: { name: SECRET, key: name } } });
        else expect({ name, source }).toEqual({ name, source: expect.objectContaining({ value: expect.any(String) }) });
      }
    });

    it(traces(service) ? `traces only where the kustomization names a collector (${kustomization === 'tracing' ? 'on' : 'off'} here)` : 'is not traced: no tracing variable', () => {
      const tracing = Object.fromEntries(TRACING_ENV.flatMap((name) => {
        const source = env.get(name);
        return source ? [[name, 'value' in source ? source.value : JSON.stringify(source)]] : [];
      }));
      if (!traces(service)) {
        expect(tracing).toEqual({});
        return;
      }
      // the one test the service itself makes (libs/telemetry), on what the kubelet would give it
      expect(tracingEnabled(tracing)).toBe(kustomization === 'tracing');
      if (kustomization === 'tracing') expect(new URL(tracing.OTEL_EXPORTER_OTLP_ENDPOINT!).protocol).toBe('http:');
    });

    it('reads only config maps of its own namespace', () => {
      const maps = (container.envFrom ?? []).flatMap((f) => (f.configMapRef ? [named(objects, 'ConfigMap', f.configMapRef.name)] : []));
      expect(maps.map((m) => [m.metadata.name, m.metadata.namespace])).toEqual(maps.map((m) => [m.metadata.name, deployment.metadata.namespace]));
    });

    it('listens on every interface of the pod (HOST 0.0.0.0), so the kubelet reaches its probes', () => {
      expect(valueOf(spec, env, 'HOST')).toBe('0.0.0.0');
    });

    it('declares HEALTH_PORT as the `health` port and PORT, if it has one, as `http`', () => {
      expect(portNumber(container, 'health')).toBe(healthPort);
      const port = valueOf(spec, env, 'PORT');
      expect(portNumber(container, 'http')).toBe(port === undefined ? undefined : Number(port));
      expect(deployment.spec.template.metadata.annotations?.['prometheus.io/port']).toBe(String(healthPort));
    });

    it(`probes /healthz (startup, liveness) and ${READINESS_PATH[service] ?? '/readyz'} (readiness) on HEALTH_PORT`, () => {
      const probes = { startup: container.startupProbe, liveness: container.livenessProbe, readiness: container.readinessProbe };
      const seen = Object.fromEntries(Object.entries(probes).map(([kind, p]) => [kind, `${p?.httpGet?.path} :${portNumber(container, p?.httpGet?.port)}`]));
      expect(seen).toEqual({
        startup: `/healthz :${healthPort}`,
        liveness: `/healthz :${healthPort}`,
        readiness: `${READINESS_PATH[service] ?? '/readyz'} :${healthPort}`,
      });
    });

    it('gives SIGTERM more time than preStop + SHUTDOWN_GRACE_MS + the service\'s own 2 s margin', () => {
      const graceMs = Number(valueOf(spec, env, 'SHUTDOWN_GRACE_MS'));
      const preStopMs = (container.lifecycle?.preStop?.sleep?.seconds ?? 0) * 1000;
      expect(container.lifecycle?.preStop?.exec).toBeUndefined();
      expect(graceMs).toBeGreaterThan(0);
      expect((pod.terminationGracePeriodSeconds ?? 30) * 1000).toBeGreaterThan(preStopMs + graceMs + SHUTDOWN_FORCE_MARGIN_MS);
    });

    it(SERVED.includes(service) ? 'waits in preStop for endpoints to drop the pod before SIGTERM' : 'stops at once: no Service routes to it', () => {
      const sleep = container.lifecycle?.preStop?.sleep?.seconds;
      if (SERVED.includes(service)) expect(sleep).toBeGreaterThanOrEqual(5);
      else expect(sleep).toBeUndefined();
      const routing = ofKind<Service>(objects, 'Service').filter((s) => s.spec.clusterIP !== 'None' && selects(s.spec.selector, deployment.spec.template.metadata.labels));
      expect(routing.length > 0).toBe(SERVED.includes(service));
    });

    it('has a PodDisruptionBudget over its pods that lets a drain evict one at a time', () => {
      const pdbs = ofKind<PodDisruptionBudget>(objects, 'PodDisruptionBudget').filter((p) => selects(p.spec.selector.matchLabels, deployment.spec.template.metadata.labels));
      expect(pdbs.map((p) => [p.metadata.name, p.spec.maxUnavailable, p.spec.minAvailable])).toEqual([[service, 1, undefined]]);
      expect(selects(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels)).toBe(true);
    });

    it('requests and limits CPU and memory, requests within limits', () => {
      const { requests = {}, limits = {} } = container.resources ?? {};
      for (const r of ['cpu', 'memory']) {
        expect({ [r]: [requests[r], limits[r]] }).toEqual({ [r]: [expect.any(String), expect.any(String)] });
        expect(quantity(requests[r]!)).toBeLessThanOrEqual(quantity(limits[r]!));
      }
    });

    it("runs as the image's non-root user on a read-only root, no privilege escalation, no capabilities, no API token", () => {
      expect(pod.securityContext).toEqual({ runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } });
      expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
      expect([pod.automountServiceAccountToken, pod.enableServiceLinks, pod.hostNetwork]).toEqual([false, false, undefined]);
      expect(named(objects, 'ServiceAccount', pod.serviceAccountName ?? 'default')).toMatchObject({ automountServiceAccountToken: false });
    });
  });
});
