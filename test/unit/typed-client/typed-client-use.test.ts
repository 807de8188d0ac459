import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// No hand-written request type in the dashboard or tests that the client already provides
// (docs/testing.md "The typed client in tests"): the tests and the dashboard's source are read
// with the TypeScript parser, and
//  1. no interface or type alias is named like a type @relay/client exports (a schema of the
//     OpenAPI document, or one of its aliases),
//  2. no interface, type alias or `as { … }` has exactly the fields of a schema of the document,
//  3. no API body is cast `as any`,
//  4. every raw management API call (`stack.api(`, `fx.api(`, `fx.apiAs(`, any `<x>.api(`) carries a
//     `// raw: <reason>` comment on its statement (or its line): the typed client is the default,
//     and a raw call says which raw HTTP behaviour it checks. Every file is on the client: there
//     is no list of files excused from this.

const ROOT = path.resolve(__dirname, '../../..');
const SCANNED = ['test', 'services/management-api/dashboard/src'];
/** A `// raw: reason` comment, the reason at least a few characters. */
const RAW_REASON = /\/\/\s*raw:\s*\S.{3,}/;

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((d) => {
    const rel = path.posix.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'node_modules' || d.name === 'dist' ? [] : sourceFiles(rel);
    return /\.tsx?$/.test(d.name) && !d.name.endsWith('.d.ts') ? [rel] : [];
  });
}

function parse(file: string, text = readFileSync(path.join(ROOT, file), 'utf8')): ts.SourceFile {
  return ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
}

function nameOf(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

/** The field names of a type literal or interface body. */
function fieldsOf(members: ts.NodeArray<ts.TypeElement>): string[] {
  return members
    .flatMap((m) => (ts.isPropertySignature(m) && m.name ? [nameOf(m.name) ?? ''] : []))
    .filter(Boolean)
    .sort();
}

/** The document's schemas by name, with their field names, and every type name the client exports. */
function clientTypes(): { names: Set<string>; shapes: Map<string, string> } {
  const schema = parse('libs/client/src/schema.ts');
  const names = new Set<string>();
  const shapes = new Map<string, string>();
  ts.forEachChild(schema, (node) => {
    if (!ts.isInterfaceDeclaration(node) || node.name.text !== 'components') return;
    const schemas = node.members.find((m) => ts.isPropertySignature(m) && m.name && nameOf(m.name) === 'schemas') as
      ts.PropertySignature | undefined;
    if (!schemas?.type || !ts.isTypeLiteralNode(schemas.type)) return;
    for (const m of schemas.type.members) {
      if (!ts.isPropertySignature(m) || !m.name) continue;
      const name = nameOf(m.name)!;
      names.add(name);
      const fields = m.type && ts.isTypeLiteralNode(m.type) ? fieldsOf(m.type.members) : [];
      if (fields.length >= 2) shapes.set(fields.join(','), name);
    }
  });
  ts.forEachChild(parse('libs/client/src/index.ts'), (node) => {
    if (
      (ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node)) &&
      node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    )
      names.add(node.name.text);
  });
  return { names, shapes };
}

interface Finding {
  file: string;
  line: number;
  rule: 'name' | 'shape' | 'as-any' | 'raw';
  what: string;
}

function check(file: string, client: ReturnType<typeof clientTypes>, text?: string): Finding[] {
  const src = parse(file, text);
  const lines = src.text.split('\n');
  const found: Finding[] = [];
  const at = (node: ts.Node, rule: Finding['rule'], what: string) =>
    found.push({ file, line: src.getLineAndCharacterOfPosition(node.getStart(src)).line + 1, rule, what });
  const shape = (node: ts.Node, members: ts.NodeArray<ts.TypeElement>, label: string) => {
    const schema = client.shapes.get(fieldsOf(members).join(','));
    if (schema) at(node, 'shape', `${label} has exactly the fields of the client's ${schema}`);
  };
  /** the lines of the statement holding `node`, with the comment lines right above it */
  const commentedLines = (node: ts.Node): string[] => {
    let stmt: ts.Node = node;
    while (stmt.parent && !ts.isSourceFile(stmt.parent) && !ts.isBlock(stmt.parent) && !ts.isClassElement(stmt))
      stmt = stmt.parent;
    let first = src.getLineAndCharacterOfPosition(stmt.getStart(src)).line;
    const last = src.getLineAndCharacterOfPosition(node.getEnd()).line;
    while (first > 0 && /^\s*\/\//.test(lines[first - 1]!)) first -= 1;
    return lines.slice(first, last + 1);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) {
      if (client.names.has(node.name.text)) at(node, 'name', `${node.name.text} is a type @relay/client exports`);
      if (ts.isInterfaceDeclaration(node)) shape(node, node.members, node.name.text);
      else if (ts.isTypeLiteralNode(node.type)) shape(node, node.type.members, node.name.text);
    }
    if (ts.isAsExpression(node)) {
      if (ts.isTypeLiteralNode(node.type)) shape(node, node.type.members, '`as { … }`');
      const target = node.expression.getText(src);
      if (node.type.kind === ts.SyntaxKind.AnyKeyword && /(\.body|\.data|\.json\(\))\)?$/.test(target))
        at(node, 'as-any', `${target} as any`);
    }
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      (node.expression.name.text === 'api' || node.expression.name.text === 'apiAs')
    ) {
      if (!commentedLines(node).some((l) => RAW_REASON.test(l)))
        at(node, 'raw', `${node.expression.getText(src)}(…) without a \`// raw:\` reason`);
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return found;
}

describe('the typed client is what tests and the dashboard call the API with (docs/testing.md)', () => {
  const client = clientTypes();
  const files = SCANNED.flatMap(sourceFiles);
  const findings = files.flatMap((f) => check(f, client));
  const show = (rule: Finding['rule']) =>
    findings.filter((f) => f.rule === rule).map((f) => `${f.file}:${f.line} ${f.what}`);

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

  it('calls the API raw only with a `// raw:` reason', () => {
    expect(show('raw')).toEqual([]);
  });
});
