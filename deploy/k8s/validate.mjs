#!/usr/bin/env node
// Validates Kubernetes manifests against the API schemas, offline, the way `kubeconform -strict`
// does: reads a YAML stream (e.g. `kubectl kustomize deploy/k8s/overlays/production`) on stdin
// and checks every object against the schema of its apiVersion and kind.
//
//   kubectl kustomize deploy/k8s/overlays/production | node deploy/k8s/validate.mjs [--json]
//
// - Kubernetes kinds: the "strict" JSON schemas kubernetes-validate (PyPI) generates from the
//   Kubernetes OpenAPI definitions, vendored in schemas/kubernetes-v1.34-strict (schemas/README.md),
//   checked by ajv (JSON Schema 2020-12). Strict: a field its API type does not have is an error,
//   as with `kubectl apply --validate=strict`, so a misspelt `readinesProbe` cannot pass unnoticed.
//   Formats (int32, date-time…) are annotations only, as in kubernetes-validate.
// - KEDA kinds (keda.sh/v1alpha1): the validators @kubernetes-models/keda compiles from KEDA
//   v2.19.0's API types (types, enums, required fields; they do not reject unknown fields).
// - Any other kind fails: an object nothing can check is not taken as valid.
//
// Prints one line per object (`PASS`/`FAIL kind/name …`), or with --json an array of
// { apiVersion, kind, name, schema, errors }; exits 1 when any object fails.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { parseAllDocuments } from 'yaml';
import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';

const K8S_SCHEMAS = fileURLToPath(new URL('./schemas/kubernetes-v1.34-strict/', import.meta.url));
const K8S_LABEL = 'kubernetes v1.34 strict';
const KEDA_LABEL = 'keda v2.19.0 (@kubernetes-models/keda)';
const KEDA_MODELS = { ScaledObject, TriggerAuthentication };

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(JSON.parse(readFileSync(`${K8S_SCHEMAS}_definitions.json`, 'utf8')));
const compiled = new Map();

/** kubernetes-validate's file name: kind, then the API group without its domain, then the version. */
function schemaFile(apiVersion, kind) {
  return `${kind.toLowerCase()}-${apiVersion.replace(/^([^./]*)(?:\.[^/]*)?\//, '$1-')}.json`;
}

function kubernetesValidator(apiVersion, kind) {
  const file = schemaFile(apiVersion, kind);
  if (!compiled.has(file)) {
    let schema = null;
    try {
      schema = JSON.parse(readFileSync(K8S_SCHEMAS + file, 'utf8'));
    } catch {
      // no vendored schema for this kind
    }
    compiled.set(file, schema && ajv.compile(schema));
  }
  return compiled.get(file);
}

const describe = (e) => `${e.instancePath || '/'} ${e.message}${e.params?.additionalProperty ? ` (${e.params.additionalProperty})` : ''}`;

function check(obj) {
  const { apiVersion = '', kind = '' } = obj ?? {};
  const name = obj?.metadata?.name ?? '';
  const result = { apiVersion, kind, name, schema: null, errors: [] };
  if (apiVersion === 'keda.sh/v1alpha1' && KEDA_MODELS[kind]) {
    result.schema = KEDA_LABEL;
    try {
      new KEDA_MODELS[kind](obj).validate();
    } catch (err) {
      result.errors = Array.isArray(err.errors) ? err.errors.map(describe) : [String(err.message ?? err)];
    }
    return result;
  }
  const validate = apiVersion && kind ? kubernetesValidator(apiVersion, kind) : null;
  if (!validate) {
    result.errors = [`no schema for ${apiVersion || '(no apiVersion)'} ${kind || '(no kind)'}: nothing can check this object`];
    return result;
  }
  result.schema = K8S_LABEL;
  if (!validate(obj)) result.errors = validate.errors.map(describe);
  return result;
}

const docs = parseAllDocuments(readFileSync(0, 'utf8'));
const results = [];
for (const doc of docs) {
  if (doc.errors.length > 0) {
    results.push({ apiVersion: '', kind: '', name: '', schema: null, errors: doc.errors.map((e) => `YAML: ${e.message}`) });
    continue;
  }
  const obj = doc.toJS();
  if (obj !== null) results.push(check(obj));
}

if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
} else {
  for (const r of results) {
    const id = `${r.kind.toLowerCase()}/${r.name}`;
    if (r.errors.length === 0) process.stdout.write(`PASS ${id} (${r.apiVersion}, ${r.schema})\n`);
    else process.stdout.write(`FAIL ${id} (${r.apiVersion}, ${r.schema ?? 'no schema'}):\n${r.errors.map((e) => `  ${e}\n`).join('')}`);
  }
}
process.exitCode = results.length > 0 && results.every((r) => r.errors.length === 0) ? 0 : 1;
