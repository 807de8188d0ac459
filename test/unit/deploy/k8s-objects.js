"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ofKind = void 0;
exports.named = named;
exports.environmentOf = environmentOf;
exports.valueOf = valueOf;
exports.portNumber = portNumber;
exports.quantity = quantity;
exports.selects = selects;
const ofKind = (objects, kind) => objects.filter((o) => o.kind === kind);
exports.ofKind = ofKind;
function named(objects, kind, name) {
    const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
    if (!found)
        throw new Error(`no ${kind}/${name} rendered`);
    return found;
}
/** The environment of a container as the kubelet builds it: envFrom sources first, then env. */
function environmentOf(container, objects) {
    const env = new Map();
    for (const from of container.envFrom ?? []) {
        if (from.configMapRef) {
            const data = named(objects, 'ConfigMap', from.configMapRef.name).data ?? {};
            for (const [k, v] of Object.entries(data))
                env.set(k, { value: v });
        }
        else {
            // a whole Secret would hand every key to every service: secrets are referenced one by one
            env.set(`<envFrom ${JSON.stringify(from)}>`, { unsupported: 'envFrom other than a ConfigMap' });
        }
    }
    for (const v of container.env ?? []) {
        if (v.value !== undefined)
            env.set(v.name, { value: v.value });
        else if (v.valueFrom?.secretKeyRef)
            env.set(v.name, { secret: v.valueFrom.secretKeyRef });
        else
            env.set(v.name, { unsupported: JSON.stringify(v.valueFrom) });
    }
    return env;
}
/** A variable's value as the service reads it: set in the manifest, else its spec default. */
function valueOf(spec, env, name) {
    const source = env.get(name);
    if (source && 'value' in source)
        return source.value;
    const v = Object.values(spec).find((s) => s.env === name);
    return v?.default === undefined ? undefined : String(v.default);
}
/** A container port by number or by name. */
function portNumber(container, port) {
    if (typeof port === 'number')
        return port;
    return container.ports?.find((p) => p.name === port)?.containerPort;
}
const UNITS = { '': 1, m: 1e-3, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, k: 1e3, M: 1e6, G: 1e9 };
/** A Kubernetes quantity ("250m", "1", "512Mi") as a number of cores or bytes. */
function quantity(q) {
    const m = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|k|M|G)?$/.exec(q);
    if (!m)
        throw new Error(`unsupported quantity ${q}`);
    return Number(m[1]) * UNITS[m[2] ?? ''];
}
function selects(selector, labels) {
    return selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
}
//# sourceMappingURL=k8s-objects.js.map