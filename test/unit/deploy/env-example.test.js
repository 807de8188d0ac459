"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
const config_1 = require("@relay/config");
const env_example_1 = require("./env-example");
const service_specs_1 = require("./service-specs");
const FILE = node_path_1.default.join(service_specs_1.ROOT, '.env.example');
function assignedNames(text) {
    return text
        .split('\n')
        .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
        .map((line) => line.slice(0, line.indexOf('=')));
}
describe('.env.example', () => {
    const services = (0, service_specs_1.loadServiceSpecs)();
    const expected = (0, env_example_1.renderEnvExample)(services);
    // The test writes the file only when asked; production code has no such branch.
    if (process.env.UPDATE_ENV_EXAMPLE === '1')
        (0, node_fs_1.writeFileSync)(FILE, expected);
    it('is generated from the current config specs of every service', () => {
        const actual = (0, node_fs_1.existsSync)(FILE) ? (0, node_fs_1.readFileSync)(FILE, 'utf8') : '';
        if (actual !== expected) {
            const have = new Set(actual.split('\n'));
            const want = new Set(expected.split('\n'));
            const missing = [...want].filter((l) => !have.has(l)).slice(0, 10);
            const stale = [...have].filter((l) => !want.has(l)).slice(0, 10);
            throw new Error(`.env.example is out of date with services/*/src/config.ts. Regenerate it with\n  ${env_example_1.REGENERATE}\n` +
                `lines missing:\n  ${missing.join('\n  ')}\nlines no longer generated:\n  ${stale.join('\n  ')}`);
        }
    });
    it('assigns every variable any service reads', () => {
        const assigned = new Set(assignedNames(expected));
        const read = services.flatMap(({ spec }) => (0, config_1.envNames)(spec));
        expect(read.filter((name) => !assigned.has(name))).toEqual([]);
        expect(read.length).toBeGreaterThan(0);
    });
    it('gives every variable a one-line meaning just above it', () => {
        const lines = expected.split('\n');
        const bare = lines.filter((line, i) => /^[A-Z][A-Z0-9_]*=/.test(line) && !(lines[i - 1] ?? '').startsWith('# '));
        expect(bare).toEqual([]);
    });
    it('prints no secret default', () => {
        const secrets = services.flatMap(({ spec }) => Object.values(spec).filter((v) => v.secret).map((v) => v.env));
        const lines = expected.split('\n');
        expect(lines.filter((line) => secrets.some((env) => line.startsWith(`${env}=`) && line !== `${env}=`))).toEqual([]);
    });
});
//# sourceMappingURL=env-example.test.js.map