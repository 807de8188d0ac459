"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.KUSTOMIZATIONS = exports.KUBECTL = exports.K8S_DIR = void 0;
exports.render = render;
exports.objectsOf = objectsOf;
exports.validate = validate;
exports.toYaml = toYaml;
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
const yaml_1 = require("yaml");
const service_specs_1 = require("./service-specs");
// Renders deploy/k8s with a real kustomize and validates the output with deploy/k8s/validate.mjs
// (the vendored Kubernetes schemas and KEDA's), each as its own process, as an operator would.
exports.K8S_DIR = node_path_1.default.join(service_specs_1.ROOT, 'deploy', 'k8s');
/** Debian 12's kubernetes-client, unpacked by scripts/k8s-tools.sh (kubectl 1.20 = kustomize v2.0.3). */
exports.KUBECTL = node_path_1.default.join(service_specs_1.ROOT, '.infra', 'tools', 'kubernetes-client', 'usr', 'bin', 'kubectl');
const VALIDATOR = node_path_1.default.join(exports.K8S_DIR, 'validate.mjs');
/** The kustomizations an operator applies, by name (tracing: production with traces sent to a collector, an example). */
exports.KUSTOMIZATIONS = { base: 'base', production: 'overlays/production', tracing: 'overlays/tracing' };
/** `kubectl kustomize deploy/k8s/<dir>`: the YAML stream an operator would apply. */
function render(name) {
    if (!(0, node_fs_1.existsSync)(exports.KUBECTL)) {
        throw new Error(`${node_path_1.default.relative(service_specs_1.ROOT, exports.KUBECTL)} is missing: run \`bash scripts/k8s-tools.sh\` (npm test does)`);
    }
    const out = (0, node_child_process_1.spawnSync)(exports.KUBECTL, ['kustomize', node_path_1.default.join(exports.K8S_DIR, exports.KUSTOMIZATIONS[name])], { encoding: 'utf8' });
    if (out.status !== 0)
        throw new Error(`kubectl kustomize ${exports.KUSTOMIZATIONS[name]} failed: ${out.stderr || out.error?.message}`);
    return out.stdout;
}
function objectsOf(yaml) {
    return (0, yaml_1.parseAllDocuments)(yaml)
        .map((doc) => doc.toJS())
        .filter((obj) => obj !== null);
}
/** Runs deploy/k8s/validate.mjs on a YAML stream; `status` is its exit code. */
function validate(yaml) {
    const out = (0, node_child_process_1.spawnSync)(process.execPath, [VALIDATOR, '--json'], { input: yaml, encoding: 'utf8' });
    const results = out.stdout ? JSON.parse(out.stdout) : [];
    return { status: out.status, results, stderr: out.stderr };
}
function toYaml(objects) {
    return objects.map((o) => JSON.stringify(o)).join('\n---\n');
}
//# sourceMappingURL=k8s-render.js.map