"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
const typescript_1 = __importDefault(require("typescript"));
// Issue 28's "git grep finds no hand-written request type in the dashboard or tests that the
// client already provides", kept (docs/testing.md "The typed client in tests"): the tests and the
// dashboard's source are read with the TypeScript parser, and
//  1. no interface or type alias is named like a type @relay/client exports (a schema of the
//     OpenAPI document, or one of its aliases),
//  2. no interface, type alias or `as { … }` has exactly the fields of a schema of the document,
//  3. no API body is cast `as any`,
//  4. every raw management API call (`stack.api(`, `fx.api(`, `fx.apiAs(`, any `<x>.api(`) carries a
//     `// raw: <reason>` comment on its statement (or its line): the typed client is the default,
//     and a raw call says which raw HTTP behaviour it checks. Files not moved yet are listed in
//     NOT_YET_MOVED with their count of unexplained raw calls: the count must match exactly, so a
//     new raw call fails and a moved file must leave the list.
const ROOT = node_path_1.default.resolve(__dirname, '../../..');
const SCANNED = ['test', 'services/management-api/dashboard/src'];
/** A `// raw: reason` comment, the reason at least a few characters. */
const RAW_REASON = /\/\/\s*raw:\s*\S.{3,}/;
/**
 * Files still calling the API raw without a reason, with how many such calls each holds (docs/client.md
 * "Where it is used": they move to the client when next changed). Only ever shrinks.
 */
const NOT_YET_MOVED = {
    'test/e2e/alerts.test.ts': 7,
    'test/e2e/bulk-retry.test.ts': 13,
    'test/e2e/cluster-redis.test.ts': 6,
    'test/integration/management/audit.test.ts': 27,
    'test/integration/management/settings.test.ts': 29,
};
function sourceFiles(dir) {
    return (0, node_fs_1.readdirSync)(node_path_1.default.join(ROOT, dir), { withFileTypes: true }).flatMap((d) => {
        const rel = node_path_1.default.posix.join(dir, d.name);
        if (d.isDirectory())
            return d.name === 'node_modules' || d.name === 'dist' ? [] : sourceFiles(rel);
        return /\.tsx?$/.test(d.name) && !d.name.endsWith('.d.ts') ? [rel] : [];
    });
}
function parse(file, text = (0, node_fs_1.readFileSync)(node_path_1.default.join(ROOT, file), 'utf8')) {
    return typescript_1.default.createSourceFile(file, text, typescript_1.default.ScriptTarget.Latest, true, file.endsWith('.tsx') ? typescript_1.default.ScriptKind.TSX : typescript_1.default.ScriptKind.TS);
}
function nameOf(name) {
    return typescript_1.default.isIdentifier(name) || typescript_1.default.isStringLiteral(name) ? name.text : undefined;
}
/** The field names of a type literal or interface body. */
function fieldsOf(members) {
    return members.flatMap((m) => (typescript_1.default.isPropertySignature(m) && m.name ? [nameOf(m.name) ?? ''] : [])).filter(Boolean).sort();
}
/** The document's schemas by name, with their field names, and every type name the client exports. */
function clientTypes() {
    const schema = parse('libs/client/src/schema.ts');
    const names = new Set();
    const shapes = new Map();
    typescript_1.default.forEachChild(schema, (node) => {
        if (!typescript_1.default.isInterfaceDeclaration(node) || node.name.text !== 'components')
            return;
        const schemas = node.members.find((m) => typescript_1.default.isPropertySignature(m) && m.name && nameOf(m.name) === 'schemas');
        if (!schemas?.type || !typescript_1.default.isTypeLiteralNode(schemas.type))
            return;
        for (const m of schemas.type.members) {
            if (!typescript_1.default.isPropertySignature(m) || !m.name)
                continue;
            const name = nameOf(m.name);
            names.add(name);
            const fields = m.type && typescript_1.default.isTypeLiteralNode(m.type) ? fieldsOf(m.type.members) : [];
            if (fields.length >= 2)
                shapes.set(fields.join(','), name);
        }
    });
    typescript_1.default.forEachChild(parse('libs/client/src/index.ts'), (node) => {
        if ((typescript_1.default.isTypeAliasDeclaration(node) || typescript_1.default.isInterfaceDeclaration(node)) && node.modifiers?.some((m) => m.kind === typescript_1.default.SyntaxKind.ExportKeyword))
            names.add(node.name.text);
    });
    return { names, shapes };
}
function check(file, client, text) {
    const src = parse(file, text);
    const lines = src.text.split('\n');
    const found = [];
    const at = (node, rule, what) => found.push({ file, line: src.getLineAndCharacterOfPosition(node.getStart(src)).line + 1, rule, what });
    const shape = (node, members, label) => {
        const schema = client.shapes.get(fieldsOf(members).join(','));
        if (schema)
            at(node, 'shape', `${label} has exactly the fields of the client's ${schema}`);
    };
    /** the lines of the statement holding `node`, with the comment lines right above it */
    const commentedLines = (node) => {
        let stmt = node;
        while (stmt.parent && !typescript_1.default.isSourceFile(stmt.parent) && !typescript_1.default.isBlock(stmt.parent) && !typescript_1.default.isClassElement(stmt))
            stmt = stmt.parent;
        let first = src.getLineAndCharacterOfPosition(stmt.getStart(src)).line;
        const last = src.getLineAndCharacterOfPosition(node.getEnd()).line;
        while (first > 0 && /^\s*\/\//.test(lines[first - 1]))
            first -= 1;
        return lines.slice(first, last + 1);
    };
    const visit = (node) => {
        if (typescript_1.default.isInterfaceDeclaration(node) || typescript_1.default.isTypeAliasDeclaration(node)) {
            if (client.names.has(node.name.text))
                at(node, 'name', `${node.name.text} is a type @relay/client exports`);
            if (typescript_1.default.isInterfaceDeclaration(node))
                shape(node, node.members, node.name.text);
            else if (typescript_1.default.isTypeLiteralNode(node.type))
                shape(node, node.type.members, node.name.text);
        }
        if (typescript_1.default.isAsExpression(node)) {
            if (typescript_1.default.isTypeLiteralNode(node.type))
                shape(node, node.type.members, '`as { … }`');
            const target = node.expression.getText(src);
            if (node.type.kind === typescript_1.default.SyntaxKind.AnyKeyword && /(\.body|\.data|\.json\(\))\)?$/.test(target))
                at(node, 'as-any', `${target} as any`);
        }
        if (typescript_1.default.isCallExpression(node) && typescript_1.default.isPropertyAccessExpression(node.expression) && (node.expression.name.text === 'api' || node.expression.name.text === 'apiAs')) {
            if (!commentedLines(node).some((l) => RAW_REASON.test(l)))
                at(node, 'raw', `${node.expression.getText(src)}(…) without a \`// raw:\` reason`);
        }
        typescript_1.default.forEachChild(node, visit);
    };
    visit(src);
    return found;
}
describe('the typed client is what tests and the dashboard call the API with (docs/testing.md)', () => {
    const client = clientTypes();
    const files = SCANNED.flatMap(sourceFiles);
    const findings = files.flatMap((f) => check(f, client));
    const show = (rule) => findings.filter((f) => f.rule === rule).map((f) => `${f.file}:${f.line} ${f.what}`);
    it('reads the client: the document has its schemas, the files are there', () => {
        expect(client.names.has('Endpoint')).toBe(true);
        expect(client.shapes.size).toBeGreaterThan(10);
        expect(files.length).toBeGreaterThan(100);
    });
    it('finds what it looks for, and takes a `// raw:` reason (a sample file)', () => {
        const sample = [
            'interface Endpoint { id: string }',
            'type Row = { field: string; message: string };',
            'const r = (await res.json()) as { field: string; message: string };',
            'const b = res.body as any;',
            "const a = await stack.api('/v1/endpoints');",
            '// raw: the 405 and its Allow header, which the typed client cannot ask for',
            "const c = await stack.api('/v1/endpoints', { method: 'PUT' });",
            "const d = await fx.api('get', '/v1/x'); // raw: a malformed path",
            'it("x", async () => {',
            '  // raw: a body that is not JSON',
            "  expect((await fx.api('post', '/v1/endpoints', 'nope')).status).toBe(400);",
            "  expect((await fx.api('post', '/v1/endpoints', {})).status).toBe(400);",
            '});',
        ].join('\n');
        const got = check('sample.test.ts', client, sample).map((f) => `${f.line} ${f.rule}`);
        expect(got).toEqual(['1 name', '2 shape', '3 shape', '4 as-any', '5 raw', '12 raw']);
    });
    it('declares no type named like one the client exports', () => {
        expect(show('name')).toEqual([]);
    });
    it("declares no type with exactly a schema's fields", () => {
        expect(show('shape')).toEqual([]);
    });
    it('casts no API body `as any`', () => {
        expect(show('as-any')).toEqual([]);
    });
    it('calls the API raw only with a `// raw:` reason, but in the files not moved yet (each count exact)', () => {
        const counts = {};
        for (const f of findings.filter((x) => x.rule === 'raw'))
            counts[f.file] = (counts[f.file] ?? 0) + 1;
        // one line per file whose count changed: more is a raw call without a reason, fewer a file that moved (lower its count)
        const changed = [...new Set([...Object.keys(counts), ...Object.keys(NOT_YET_MOVED)])]
            .sort()
            .filter((file) => (counts[file] ?? 0) !== (NOT_YET_MOVED[file] ?? 0))
            .map((file) => `${file}: ${NOT_YET_MOVED[file] ?? 0} listed, ${counts[file] ?? 0} found (${show('raw').filter((l) => l.startsWith(`${file}:`)).join('; ') || 'none left'})`);
        expect(changed).toEqual([]);
    });
});
//# sourceMappingURL=typed-client-use.test.js.map