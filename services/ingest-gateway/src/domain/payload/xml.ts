import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** Deepest element nesting accepted; the root element is depth 1. */
export const MAX_XML_DEPTH = 32;

/**
 * Hardened XML reading. A DOCTYPE (and with it every ENTITY declaration) is refused outright,
 * so no entity can expand: a "billion laughs" document is rejected before parsing. Only the
 * five predefined entities and numeric character references are decoded (the parser's HTML
 * entity table is on for the latter, so HTML names such as `&nbsp;` decode too). Nesting is
 * capped at {@link MAX_XML_DEPTH} by the parser's own element stack.
 *
 * Shape of `data`: `{ root: { child: "text", repeated: ["a", "b"], "@attr": "v", "#text": "mixed text" } }`.
 * Every value stays a string (no number guessing: `007` is a zip code, not 7); text is trimmed;
 * an empty element is "".
 */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  htmlEntities: true,
  // The parser throws once its stack of open elements exceeds this, i.e. at depth MAX + 1.
  maxNestedTags: MAX_XML_DEPTH - 1,
});

export type XmlResult = { ok: true; data: Record<string, unknown> } | { ok: false; message: string };

export function parseXml(text: string): XmlResult {
  if (declaresDoctype(text)) return { ok: false, message: 'XML with a DOCTYPE or ENTITY declaration is not accepted.' };
  let data: Record<string, unknown>;
  // Parse before validating: the parser stops at the depth cap at once, the validator would walk it all.
  try {
    data = parser.parse(text) as Record<string, unknown>;
  } catch (err) {
    const deep = err instanceof Error && /nested tags/i.test(err.message);
    return { ok: false, message: deep ? `XML nesting deeper than ${MAX_XML_DEPTH} levels is not accepted.` : 'The body is not well-formed XML.' };
  }
  // The parser is lenient; the validator decides well-formedness.
  const valid = XMLValidator.validate(text);
  if (valid !== true) return { ok: false, message: `The body is not well-formed XML (line ${valid.err.line}: ${valid.err.msg})` };
  // The validator misses several self-closing roots (`<a/><b/>`); one document has one root element.
  const roots = Object.values(data);
  if (roots.length !== 1 || Array.isArray(roots[0])) return { ok: false, message: 'The XML body must have exactly one root element.' };
  return { ok: true, data };
}

/**
 * Looks for `<!DOCTYPE` / `<!ENTITY` outside comments and CDATA sections (which may quote such
 * text harmlessly, e.g. an HTML document in CDATA). Linear: each `<!` is visited once.
 */
function declaresDoctype(text: string): boolean {
  let at = text.indexOf('<!');
  while (at !== -1) {
    if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at + 4);
      if (end === -1) return false;
      at = text.indexOf('<!', end + 3);
    } else if (text.startsWith('<![CDATA[', at)) {
      const end = text.indexOf(']]>', at + 9);
      if (end === -1) return false;
      at = text.indexOf('<!', end + 3);
    } else {
      const keyword = text.slice(at + 2, at + 9).toUpperCase();
      if (keyword.startsWith('DOCTYPE') || keyword.startsWith('ENTITY')) return true;
      at = text.indexOf('<!', at + 2);
    }
  }
  return false;
}
