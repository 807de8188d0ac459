"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.PROGRAM_INSTANCES = exports.ROOT = void 0;
exports.serviceDirs = serviceDirs;
exports.traces = traces;
exports.programOf = programOf;
exports.deployedNames = deployedNames;
exports.configPath = configPath;
exports.loadConfigSpec = loadConfigSpec;
exports.loadServiceSpecs = loadServiceSpecs;
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
exports.ROOT = node_path_1.default.resolve(__dirname, '../../..');
/** Every workspace under services/, written or not. */
function serviceDirs() {
    return (0, node_fs_1.readdirSync)(node_path_1.default.join(exports.ROOT, 'services'), { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort();
}
/**
 * Deployments that run a program of another name (docs/architecture.md "Deliverers"): each
 * deliverer deployment is services/deliverer on its DELIVERY_CHANNEL. Name → the service folder
 * whose program and config spec it runs. Everything a deploy file must satisfy for a service
 * holds for these too; the folder itself is deployed only through them.
 */
exports.PROGRAM_INSTANCES = { 'webhook-deliverer': 'deliverer', 'chat-deliverer': 'deliverer', 'outputs-deliverer': 'deliverer' };
const PROGRAMS_RUN_AS_INSTANCES = new Set(Object.values(exports.PROGRAM_INSTANCES));
/**
 * Deployments that do not trace (docs/observability.md "Traces": the management API is not on an
 * event's path). Every other one reads the tracing variables (TRACING_ENV of @relay/telemetry)
 * beside its config spec.
 */
const UNTRACED = new Set(['management-api']);
/** Whether a deployment traces, so that it may be given the tracing variables. */
function traces(deployment) {
    return !UNTRACED.has(deployment);
}
/** The service folder a deployment runs. */
function programOf(deployment) {
    return exports.PROGRAM_INSTANCES[deployment] ?? deployment;
}
/** Every deployment: each service with a config spec (but a program run only as instances), and each program instance. */
function deployedNames() {
    return [...serviceDirs().filter((name) => (0, node_fs_1.existsSync)(configPath(name)) && !PROGRAMS_RUN_AS_INSTANCES.has(name)), ...Object.keys(exports.PROGRAM_INSTANCES)].sort();
}
function configPath(service) {
    return node_path_1.default.join(exports.ROOT, 'services', service, 'src', 'config.ts');
}
/** The `configSpec` a service exports from src/config.ts: the variables it reads (STYLE.md, config). */
function loadConfigSpec(service) {
    const file = configPath(service);
    if (!(0, node_fs_1.existsSync)(file))
        throw new Error(`services/${service}/src/config.ts is missing`);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- which services exist is known only at run time
    const mod = require(file);
    if (!mod.configSpec)
        throw new Error(`services/${service}/src/config.ts does not export configSpec`);
    return mod.configSpec;
}
/** The specs of every service that has a config.ts, by service name. */
function loadServiceSpecs() {
    return serviceDirs()
        .filter((name) => (0, node_fs_1.existsSync)(configPath(name)))
        .map((name) => ({ name, spec: loadConfigSpec(name) }));
}
//# sourceMappingURL=service-specs.js.map