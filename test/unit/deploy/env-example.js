"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.REGENERATE = void 0;
exports.renderEnvExample = renderEnvExample;
const config_1 = require("@relay/config");
exports.REGENERATE = 'UPDATE_ENV_EXAMPLE=1 npx jest test/unit/deploy/env-example --selectProjects unit';
/** Two services read "the same" variable when everything .env.example says about it agrees. */
function sameMeaning(a, b) {
    const shown = (v) => JSON.stringify([v.type, v.description, v.default, Boolean(v.secret)]);
    return shown(a) === shown(b);
}
/**
 * `.env.example`: every variable every service reads, with its one-line meaning and default
 * (STYLE.md: "every variable in `.env.example` with a one-line meaning"). Variables that several
 * services read with the same meaning are written once, under "shared"; the rest by service.
 * A name may appear under two services with different defaults (PORT, HEALTH_PORT): one
 * process reads one service's value.
 */
function renderEnvExample(services) {
    const readers = new Map();
    for (const { name, spec } of services) {
        for (const v of Object.values(spec)) {
            const seen = readers.get(v.env);
            if (!seen)
                readers.set(v.env, { spec: v, services: [name], agree: true });
            else {
                seen.services.push(name);
                seen.agree &&= sameMeaning(seen.spec, v);
            }
        }
    }
    const isShared = (env) => {
        const r = readers.get(env);
        return r !== undefined && r.services.length > 1 && r.agree;
    };
    const shared = {};
    for (const [env, r] of readers)
        if (isShared(env))
            shared[env] = r.spec;
    const out = [
        '# Relay configuration: every environment variable the services read, with its meaning.',
        '# Generated from services/*/src/config.ts (configSpec); do not edit by hand. Regenerate with:',
        `#   ${exports.REGENERATE}`,
        '# An empty value is either required (marked so) or a secret whose default is not printed.',
        '',
    ];
    if (Object.keys(shared).length > 0) {
        out.push('# ---- shared: read with the same meaning by every service listed after it');
        for (const [env, v] of Object.entries(shared)) {
            out.push(`# read by: ${readers.get(env)?.services.join(', ')}`, (0, config_1.describeConfig)({ [env]: v }));
        }
        out.push('');
    }
    for (const { name, spec } of services) {
        const own = {};
        const alsoShared = [];
        for (const [key, v] of Object.entries(spec)) {
            if (isShared(v.env))
                alsoShared.push(v.env);
            else
                own[key] = v;
        }
        out.push(`# ---- ${name} (services/${name}/src/config.ts)`);
        if (alsoShared.length > 0)
            out.push(`# also reads (see shared): ${alsoShared.join(', ')}`);
        if (Object.keys(own).length > 0)
            out.push((0, config_1.describeConfig)(own));
        out.push('');
    }
    return out.join('\n');
}
//# sourceMappingURL=env-example.js.map