"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.templateOf = templateOf;
exports.checkResponse = checkResponse;
const _2020_1 = __importDefault(require("ajv/dist/2020"));
const ajv_formats_1 = __importDefault(require("ajv-formats"));
const document_1 = require("../../services/management-api/src/openapi/document");
const DOC = document_1.managementApiDocument;
const DOC_ID = 'relay-openapi.json';
const ajv = new _2020_1.default({ allErrors: true, strict: true, strictTypes: false, discriminator: true, logger: false });
(0, ajv_formats_1.default)(ajv);
ajv.addVocabulary(['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components', 'webhooks', 'jsonSchemaDialect', 'externalDocs']);
ajv.addSchema(DOC, DOC_ID);
const compiled = new Map();
const validatorAt = (pointer) => {
    let v = compiled.get(pointer);
    if (!v) {
        v = ajv.compile({ $ref: `${DOC_ID}#${pointer}` });
        compiled.set(pointer, v);
    }
    return v;
};
const escape = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');
/** Document path templates as patterns, the most literal first (`/x/{id}/audit` before `/x/{id}/{y}`). */
const TEMPLATES = Object.keys(DOC.paths)
    .map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    literals: template.split('/').filter((s) => s && !s.startsWith('{')).length,
}))
    .sort((a, b) => b.literals - a.literals);
function templateOf(path) {
    return TEMPLATES.find((t) => t.pattern.test(path))?.template;
}
const GENERIC_ERROR = {
    type: 'object',
    required: ['code', 'message'],
    additionalProperties: false,
    properties: { code: { enum: ['malformed_path', 'unauthorized', 'not_found', 'method_not_allowed'] }, message: { type: 'string' } },
};
const genericError = ajv.compile(GENERIC_ERROR);
function resolveResponse(response) {
    if (typeof response.$ref !== 'string')
        return null;
    const name = response.$ref.split('/').pop();
    return { pointer: `/components/responses/${escape(name)}`, response: DOC.components.responses[name] };
}
/** Every way the response departs from the document; [] when it matches. */
function checkResponse(r) {
    const path = r.url.split('?')[0];
    const method = r.method.toLowerCase();
    const label = `${r.method.toUpperCase()} ${path} → ${r.status}`;
    const template = templateOf(path);
    const op = template ? DOC.paths[template][method] : undefined;
    let body = undefined;
    const isJson = (r.contentType ?? '').startsWith('application/json');
    if (isJson) {
        try {
            body = JSON.parse(r.text);
        }
        catch {
            return [`${label}: the body is not JSON`];
        }
    }
    if (!template || !op) {
        // no operation: only the refusals of an unknown route or method
        if (![400, 401, 404, 405].includes(r.status) || !isJson || !genericError(body))
            return [`${label}: no operation in the document for ${r.method.toUpperCase()} ${template ?? path}`];
        return [];
    }
    const responses = op.responses;
    const key = [String(r.status), `${String(r.status)[0]}XX`, 'default'].find((k) => responses[k]);
    if (!key)
        return [`${label}: ${String(op.operationId)} documents no ${r.status} response`];
    const base = `/paths/${escape(template)}/${method}/responses/${escape(key)}`;
    const resolved = resolveResponse(responses[key]) ?? { pointer: base, response: responses[key] };
    const content = resolved.response.content;
    if (!content)
        return r.text === '' ? [] : [`${label}: ${String(op.operationId)} documents no body for ${r.status}, got one`];
    const mediaType = Object.keys(content).find((m) => (r.contentType ?? '').startsWith(m));
    if (!mediaType)
        return [`${label}: content type ${r.contentType ?? '(none)'} is not documented (${Object.keys(content).join(', ')})`];
    if (mediaType !== 'application/json')
        return [];
    const validate = validatorAt(`${resolved.pointer}/content/${escape(mediaType)}/schema`);
    if (validate(body))
        return [];
    return (validate.errors ?? []).slice(0, 8).map((e) => `${label}: ${String(op.operationId)} body${e.instancePath} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`);
}
//# sourceMappingURL=openapi-check.js.map