import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { envNames } from '@relay/config';
import type { ConfigSpec } from '@relay/config';
import { TRACING_ENV } from '@relay/telemetry';
import { ROOT, deployedNames, loadConfigSpec, PROGRAM_INSTANCES, programOf, serviceDirs, traces } from './service-specs';

// docker-compose.yml must run what the code reads: each Relay service sets only variables its
// configSpec reads and every one it requires, waits for healthy infrastructure, reports ready
// through /readyz, and the queue consumers can be scaled out.

interface Healthcheck {
  test?: string | string[];
}
interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  healthcheck?: Healthcheck;
  depends_on?: string[] | Record<string, { condition?: string }>;
  ports?: unknown[];
  container_name?: string;
  restart?: string;
  profiles?: string[];
  entrypoint?: string | string[];
  volumes?: string[];
}
interface ComposeFile {
  services: Record<string, ComposeService>;
}

const composeText = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
// Compose resolves `<<: *anchor` merge keys, so the test must too.
const compose = parse(composeText, { merge: true }) as ComposeFile;
const dockerfile = readFileSync(path.join(ROOT, 'deploy', 'Dockerfile'), 'utf8');

const INFRA = {
  mongo: { image: /^mongo:7/, probe: /mongosh.*ping/, urlVar: 'MONGODB_URL' },
  rabbitmq: { image: /^rabbitmq:3\.13-management/, probe: /rabbitmq-diagnostics.*-q.*ping/, urlVar: 'RABBITMQ_URL' },
  redis: { image: /^redis:7/, probe: /redis-cli.*ping/, urlVar: 'REDIS_URL' },
} as const;
type InfraName = keyof typeof INFRA;

/**
 * Competing consumers of one queue: several instances share the work, so nothing may pin one
 * instance. Not the activity-writer: each partition has one active writer (docs/architecture.md).
 */
const SCALABLE = ['webhook-deliverer', 'chat-deliverer'];

const composeNames = Object.keys(compose.services);
const relayServices = composeNames.filter((name) => serviceDirs().includes(name) || name in PROGRAM_INSTANCES);

function environmentOf(svc: ComposeService): Record<string, string> {
  const env = svc.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(env.map((kv) => [kv.split('=')[0], kv.slice(kv.indexOf('=') + 1)]));
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

function dependsOn(svc: ComposeService): Record<string, string | undefined> {
  const deps = svc.depends_on ?? {};
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((d) => [d, undefined]));
  return Object.fromEntries(Object.entries(deps).map(([name, d]) => [name, d.condition]));
}

/**
 * Compose interpolates `${VAR:?}` in every service, in a profile or not, so a profile's secret
 * cannot be required there without breaking a plain `docker compose up`: such a service gets it
 * as `${VAR:-}` (no default) and its entrypoint refuses to start while the variable is empty.
 */
function requiredAtStart(ref: string): boolean {
  return Object.values(compose.services).some((svc) => {
    const entrypoint = Array.isArray(svc.entrypoint) ? svc.entrypoint.join(' ') : (svc.entrypoint ?? '');
    return (svc.profiles ?? []).length > 0 && Object.entries(environmentOf(svc)).some(([key, value]) => value === ref && entrypoint.includes(`$\${${key}:?`));
  });
}

const probeText = (h: Healthcheck | undefined) => (Array.isArray(h?.test) ? h.test.join(' ') : (h?.test ?? ''));
const commandText = (svc: ComposeService) => (Array.isArray(svc.command) ? svc.command.join(' ') : (svc.command ?? ''));

/** A variable's compose value, else its spec default. */
function valueOf(spec: ConfigSpec, env: Record<string, string>, name: string): string | undefined {
  const v = Object.values(spec).find((s) => s.env === name);
  if (!v) return undefined;
  return env[v.env] ?? (v.default === undefined ? undefined : String(v.default));
}

/** Where a service answers /readyz: HEALTH_PORT when it has one (the gateway keeps it off its public PORT), else PORT. */
function healthPort(spec: ConfigSpec, env: Record<string, string>): string | undefined {
  return valueOf(spec, env, 'HEALTH_PORT') ?? valueOf(spec, env, 'PORT');
}

describe('docker-compose.yml', () => {
  it('runs every service that has a config spec (each deliverer channel as its own service)', () => {
    expect(deployedNames().filter((name) => !composeNames.includes(name))).toEqual([]);
    expect(relayServices.length).toBeGreaterThan(0);
  });

  it.each(Object.entries(INFRA))('runs %s from its image with a protocol-level healthcheck', (name, want) => {
    const svc = compose.services[name];
    expect(svc).toBeDefined();
    expect(svc?.image).toMatch(want.image);
    expect(probeText(svc?.healthcheck)).toMatch(want.probe);
    expect(svc?.restart).toBe('unless-stopped');
  });

  it('takes every password and key from the environment, required, never a literal', () => {
    const secretRefs = [...composeText.matchAll(/\$\{([A-Z0-9_]*(?:PASSWORD|SECRET|KEYS)[A-Z0-9_]*)([^}]*)\}/g)];
    expect(secretRefs.length).toBeGreaterThan(0);
    expect(secretRefs.filter(([ref, , rest]) => !rest.startsWith(':?') && !(rest === ':-' && requiredAtStart(ref))).map(([ref]) => ref)).toEqual([]);
    for (const [name, svc] of Object.entries(compose.services)) {
      for (const [key, value] of Object.entries(environmentOf(svc))) {
        if (/PASS|SECRET|KEYS/.test(key)) expect(`${name}.${key}=${value}`).toMatch(/=\$\{/);
      }
    }
  });

  it('keeps a health port apart from the public port and never publishes it (health and metrics stay inside)', () => {
    const both = relayServices.flatMap((name) => {
      const svc = compose.services[name] as ComposeService;
      const spec = loadConfigSpec(programOf(name));
      const env = environmentOf(svc);
      const [health, api] = [valueOf(spec, env, 'HEALTH_PORT'), valueOf(spec, env, 'PORT')];
      return health !== undefined && api !== undefined ? [{ name, health, api, ports: (svc.ports ?? []).map(String) }] : [];
    });
    expect(both.map((s) => s.name)).toContain('ingest-gateway');
    for (const s of both) {
      expect(s.health).not.toBe(s.api);
      expect(s.ports.filter((p) => p === s.health || p.endsWith(`:${s.health}`))).toEqual([]);
    }
  });

  describe.each(relayServices)('%s', (name) => {
    const svc = compose.services[name] as ComposeService;
    const env = environmentOf(svc);

    it('has a config spec (services/<program>/src/config.ts)', () => {
      expect(() => loadConfigSpec(programOf(name))).not.toThrow();
    });

    it('sets only variables its configSpec reads (and, traced services, the tracing variables)', () => {
      const reads = new Set([...envNames(loadConfigSpec(programOf(name))), ...(traces(name) ? TRACING_ENV : [])]);
      expect(Object.keys(env).filter((k) => !reads.has(k))).toEqual([]);
    });

    it('sets every variable its configSpec requires (no default)', () => {
      const required = Object.values(loadConfigSpec(programOf(name))).filter((v) => v.default === undefined).map((v) => v.env);
      expect(required.filter((k) => !(k in env))).toEqual([]);
    });

    it('sets secret variables by ${...} substitution only', () => {
      const secrets = Object.values(loadConfigSpec(programOf(name))).filter((v) => v.secret).map((v) => v.env);
      expect(secrets.filter((k) => k in env && !env[k]?.includes('${'))).toEqual([]);
    });

    it('reports health through /readyz on its health port', () => {
      const port = healthPort(loadConfigSpec(programOf(name)), env);
      expect(port).toBeDefined();
      expect(probeText(svc.healthcheck)).toMatch(new RegExp(`//(127\\.0\\.0\\.1|localhost):${port}/readyz\\b`));
    });


    it('waits for the healthy infrastructure it connects to, by its compose name', () => {
      const deps = dependsOn(svc);
      for (const [infra, { urlVar }] of Object.entries(INFRA) as [InfraName, (typeof INFRA)[InfraName]][]) {
        if (!(urlVar in env)) continue;
        expect(`${urlVar} -> ${deps[infra] ?? 'no depends_on'}`).toBe(`${urlVar} -> service_healthy`);
        expect(env[urlVar]).toMatch(new RegExp(`@${infra}:`));
      }
      expect(Object.keys(deps).filter((d) => !(d in INFRA))).toEqual([]);
    });

    it('restarts unless stopped', () => {
      expect(svc.restart).toBe('unless-stopped');
    });

    it('runs its build output from the image deploy/Dockerfile builds', () => {
      const build = typeof svc.build === 'string' ? { context: svc.build } : svc.build;
      expect(build?.dockerfile).toBe('deploy/Dockerfile');
      expect(commandText(svc)).toBe(`node services/${programOf(name)}/dist/main.js`);
    });

    it('is compiled by `tsc -b` into dist/main.js once its main.ts exists', () => {
      const main = path.join(ROOT, 'services', programOf(name), 'src', 'main.ts');
      if (!existsSync(main)) return; // being written elsewhere; config.ts is checked above
      const root = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')) as { references?: { path: string }[] };
      expect((root.references ?? []).map((r) => path.normalize(r.path))).toContain(path.normalize(`services/${programOf(name)}`));
      const own = JSON.parse(readFileSync(path.join(ROOT, 'services', programOf(name), 'tsconfig.json'), 'utf8')) as {
        compilerOptions?: { rootDir?: string; outDir?: string };
      };
      expect([own.compilerOptions?.rootDir, own.compilerOptions?.outDir]).toEqual(['src', 'dist']);
    });
  });

  it("lets the management API run test requests on the gateway's HEALTH_PORT and publish resends on the broker", () => {
    const api = environmentOf(compose.services['management-api']!);
    const gateway = environmentOf(compose.services['ingest-gateway']!);
    expect(api.GATEWAY_INTERNAL_URL).toBe(`http://ingest-gateway:${gateway.HEALTH_PORT}`);
    expect(api.RABBITMQ_URL).toBe(gateway.RABBITMQ_URL);
    expect(dependsOn(compose.services['management-api']!).rabbitmq).toBe('service_healthy');
  });

  it('runs the activity log on its MongoDB driver (compose runs MongoDB), the writer and the API alike', () => {
    expect(INFRA.mongo.image.test(compose.services.mongo!.image!)).toBe(true);
    for (const name of ['activity-writer', 'management-api'])
      expect(environmentOf(compose.services[name]!).ACTIVITY_LOG_DRIVER).toBe('mongodb');
  });

  it('tells the management API where people reach the dashboard it serves (DASHBOARD_URL: alerts link into it)', () => {
    const api = compose.services['management-api']!;
    const url = new URL(environmentOf(api).DASHBOARD_URL!.replace(/^\$\{DASHBOARD_URL:-(.*)\}$/, '$1'));
    expect(environmentOf(api).DASHBOARD_URL).toMatch(/^\$\{DASHBOARD_URL:-/);
    // the default is the port the API (and its dashboard) is published on, as ${MANAGEMENT_PUBLISH}'s default has it
    const port = environmentOf(api).PORT!;
    expect((api.ports ?? []).map(String)).toContain(`\${MANAGEMENT_PUBLISH:-127.0.0.1:${port}}:${port}`);
    expect(url.port).toBe(port);
  });

  it.each(SCALABLE)('lets %s scale: no container_name, no published ports', (name) => {
    const svc = compose.services[name];
    expect(svc).toBeDefined();
    expect(svc?.container_name).toBeUndefined();
    expect(svc?.ports ?? []).toEqual([]);
  });
});

// `docker compose --profile observability up` adds Prometheus and Grafana with
// deploy/observability provisioned; without the profile nothing of it starts.
describe('docker-compose.yml profile observability', () => {
  const OBSERVABILITY = {
    prometheus: { image: /^prom\/prometheus:v\d+\.\d+\.\d+$/, port: 9090, probe: '/-/ready' },
    grafana: { image: /^grafana\/grafana:\d+\.\d+\.\d+$/, port: 3000, probe: '/api/health' },
  } as const;

  describe.each(Object.entries(OBSERVABILITY))('%s', (name, want) => {
    const svc = compose.services[name] as ComposeService;

    it('runs only in the observability profile, from its official image pinned to a release', () => {
      expect(svc).toBeDefined();
      expect(svc.profiles).toEqual(['observability']);
      expect(svc.image).toMatch(want.image);
      expect(svc.restart).toBe('unless-stopped');
    });

    it('reports health through its own readiness endpoint', () => {
      expect(probeText(svc.healthcheck)).toMatch(new RegExp(`//127\\.0\\.0\\.1:${want.port}${want.probe.replace(/[/.-]/g, '\\$&')}$`));
    });

    it('publishes its UI on the host loopback unless told otherwise', () => {
      expect((svc.ports ?? []).map(String)).toEqual([expect.stringMatching(new RegExp(`^\\$\\{[A-Z_]+_PUBLISH:-127\\.0\\.0\\.1:${want.port}\\}:${want.port}$`))]);
    });

    it('mounts its configuration from deploy/observability, read-only, and keeps its data in a named volume', () => {
      const binds = (svc.volumes ?? []).filter((v) => v.startsWith('./'));
      expect(binds.length).toBeGreaterThan(0);
      for (const bind of binds) {
        const [source, , mode] = bind.split(':');
        expect(source).toMatch(/^\.\/deploy\/observability\//);
        expect(existsSync(path.join(ROOT, source!))).toBe(true);
        expect(mode).toBe('ro');
      }
      expect((svc.volumes ?? []).filter((v) => !v.startsWith('./')).map((v) => v.split(':')[0])).toEqual([`${name}-data`]);
    });
  });

  it('no Relay service depends on the profile, so a plain `docker compose up` runs without it', () => {
    const deps = relayServices.flatMap((name) => Object.keys(dependsOn(compose.services[name] as ComposeService)));
    expect(deps.filter((d) => d in OBSERVABILITY)).toEqual([]);
  });

  it('traces: jaeger runs in the profile from its pinned image, UI on loopback; the traced services send to it only when OTEL_EXPORTER_OTLP_ENDPOINT is set', () => {
    const jaeger = compose.services.jaeger as ComposeService;
    expect(jaeger.profiles).toEqual(['observability']);
    expect(jaeger.image).toMatch(/^jaegertracing\/jaeger:2\.\d+\.\d+$/);
    expect((jaeger.ports ?? []).map(String)).toEqual(['${JAEGER_PUBLISH:-127.0.0.1:16686}:16686']);
    const traced = relayServices.filter(traces);
    expect(traced).toEqual(expect.arrayContaining(['ingest-gateway', 'webhook-deliverer', 'activity-writer']));
    for (const n of traced) expect(environmentOf(compose.services[n] as ComposeService).OTEL_EXPORTER_OTLP_ENDPOINT).toBe('${OTEL_EXPORTER_OTLP_ENDPOINT:-}');
  });

  it('grafana waits for a healthy prometheus, its datasource', () => {
    expect(dependsOn(compose.services.grafana as ComposeService)).toEqual({ prometheus: 'service_healthy' });
  });

  it('grafana refuses to start without GRAFANA_ADMIN_PASSWORD (never admin/admin), then runs the image\'s own entrypoint', () => {
    const svc = compose.services.grafana as ComposeService;
    expect(environmentOf(svc).GF_SECURITY_ADMIN_PASSWORD).toBe('${GRAFANA_ADMIN_PASSWORD:-}');
    const entrypoint = (svc.entrypoint as string[]).join(' ');
    expect(entrypoint).toContain('$${GF_SECURITY_ADMIN_PASSWORD:?');
    expect(entrypoint).toMatch(/&& exec \/run\.sh$/);
  });
});

describe('deploy/Dockerfile', () => {
  it('builds on node:20-bookworm-slim in stages: npm ci, tsc -b, the dashboard, dev dependencies pruned', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m);
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    // the dashboard is built with Vite, a dev dependency: before the prune
    const steps = ['npm ci', 'npx tsc -b', 'npm run --silent build:dashboard', 'npm prune --omit=dev'].map((s) => dockerfile.indexOf(s));
    expect(steps.every((i) => i >= 0)).toBe(true);
    expect([...steps].sort((a, b) => a - b)).toEqual(steps);
  });

  it('ships the services/ and libs/ build output the compose commands run', () => {
    expect(dockerfile).toMatch(/^COPY --from=build \/app\/services\/ services\/$/m);
    expect(dockerfile).toMatch(/^COPY --from=build \/app\/libs\/ libs\/$/m);
    expect(dockerfile).toMatch(/^COPY --from=build \/app\/node_modules\/ node_modules\/$/m);
  });

  it("keeps every workspace's package.json for npm ci, the dashboard's nested one too", () => {
    expect(dockerfile).toContain("find libs services -type f ! -name package.json -delete");
    expect(dockerfile).not.toMatch(/-maxdepth 2 ! -name package\.json -exec rm/);
  });

  it('runs as the unprivileged node user', () => {
    expect(dockerfile).toMatch(/^USER node$/m);
  });
});
