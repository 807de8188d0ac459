import type { ConfigOf, ConfigSpec, VarSpec } from './spec';

/** Thrown with every problem found, so an operator fixes the environment in one pass. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Parsed = { ok: true; value: unknown } | { ok: false; problem: string };

function parseValue(spec: VarSpec, raw: string): Parsed {
  const bad = (why: string): Parsed => ({ ok: false, problem: `${spec.env}: ${why}` });
  switch (spec.type) {
    case 'string':
      return { ok: true, value: raw };
    case 'integer': {
      if (!/^-?\d+$/.test(raw.trim())) return bad(`expected an integer, got "${spec.secret ? '***' : raw}"`);
      const n = Number(raw);
      if (spec.min !== undefined && n < spec.min) return bad(`must be >= ${spec.min}`);
      if (spec.max !== undefined && n > spec.max) return bad(`must be <= ${spec.max}`);
      return { ok: true, value: n };
    }
    case 'boolean': {
      const v = raw.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(v)) return { ok: true, value: true };
      if (['0', 'false', 'no', 'off'].includes(v)) return { ok: true, value: false };
      return bad(`expected true/false, got "${raw}"`);
    }
    case 'url': {
      const parts = spec.several ? raw.split(',').map((s) => s.trim()) : [raw];
      for (const part of parts) {
        let u: URL;
        try {
          u = new URL(part);
        } catch {
          return bad(spec.several ? 'expected a URL, or several separated by commas' : 'expected a URL');
        }
        if (spec.protocols && !spec.protocols.includes(u.protocol)) {
          return bad(`URL scheme must be one of ${spec.protocols.join(', ')}`);
        }
      }
      return { ok: true, value: parts.join(',') };
    }
    case 'enum':
      if (!spec.values?.includes(raw)) return bad(`must be one of ${spec.values?.join(', ')}, got "${raw}"`);
      return { ok: true, value: raw };
    case 'list':
      return {
        ok: true,
        value: raw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      };
  }
}

/**
 * Reads and validates a service's environment against its spec. Libraries never read
 * `process.env`; each service's main calls this once and passes typed config down.
 */
export function loadConfig<S extends ConfigSpec>(spec: S, env: NodeJS.ProcessEnv): ConfigOf<S> {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(spec)) {
    const raw = env[v.env];
    if (raw === undefined || raw === '') {
      if (v.default === undefined) problems.push(`${v.env}: required (${v.description})`);
      else out[key] = v.default;
      continue;
    }
    const parsed = parseValue(v, raw);
    if (parsed.ok) out[key] = parsed.value;
    else problems.push(parsed.problem);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out as ConfigOf<S>;
}

/** Lines for `.env.example`: one commented meaning and one assignment per variable. */
export function describeConfig(spec: ConfigSpec): string {
  return Object.values(spec)
    .map((v) => {
      const meaning = `# ${v.description}${v.default === undefined ? ' (required)' : ''}`;
      const value =
        v.secret || v.default === undefined ? '' : Array.isArray(v.default) ? v.default.join(',') : String(v.default);
      return `${meaning}\n${v.env}=${value}`;
    })
    .join('\n');
}

/** The environment variable names a service reads. */
export function envNames(spec: ConfigSpec): string[] {
  return Object.values(spec).map((v) => v.env);
}
