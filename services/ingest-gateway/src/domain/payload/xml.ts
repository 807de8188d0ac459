import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { EntityDecoderOptions } from 'fast-xml-parser';

/** Deepest element nesting accepted; the root element is depth 1. */
export const MAX_XML_DEPTH = 32;

/**
 * Hardened XML reading. A DOCTYPE (and with it every ENTITY declaration) is refused outright,
 * so no entity can expand: no "billion laughs", no external entity. The refusal is the
 * parser's own: fast-xml-parser hands every DOCTYPE it reads to its entity decoder
 * (`addInputEntities`) before any entity of it could be used, and Relay's decoder refuses it
 * there. So what counts as a DOCTYPE is exactly what the parser would act on: text that only
 * looks like one (in a comment, CDATA or an attribute value) is content, and no quoting trick
 * can hide a real one (a hand scan was fooled by `<!--` in an attribute value).
 *
 * The decoder also decodes what XML without a DTD defines: the five predefined entities and
 * numeric character references. Any other `&name;` (such as `&nbsp;`) is left as written.
 * Nesting is capped at {@link MAX_XML_DEPTH} by the parser's own element stack.
 *
 * Shape of `data`: `{ root: { child: "text", repeated: ["a", "b"], "@attr": "v", "#text": "mixed text" } }`.
 * Every value stays a string (no number guessing: `007` is a zip code, not 7); text is trimmed;
 * an empty element is "".
 */
class DoctypeRefused extends Error {}
class BadCharacterReference extends Error {}
class StrayDeclaration extends Error {}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const REFERENCE = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(lt|gt|amp|quot|apos));/g;

/** XML 1.0 §2.2 Char: a character reference to anything else is not well-formed. */
function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

const entityDecoder: EntityDecoderOptions = {
  addInputEntities: () => {
    throw new DoctypeRefused();
  },
  setExternalEntities: () => undefined,
  reset: () => undefined,
  setXmlVersion: () => undefined,
  decode: (text) =>
    text.includes('&')
      ? text.replace(REFERENCE, (_ref, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
          if (name !== undefined) return PREDEFINED[name]!;
          const cp = hex !== undefined ? parseInt(hex, 16) : Number(dec);
          if (!isXmlChar(cp)) throw new BadCharacterReference();
          return String.fromCodePoint(cp);
        })
      : text,
};

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
  entityDecoder,
  // The parser reads other `<!…>` markup (`<!ENTITY` outside a DOCTYPE, `<!doctype`) as an
  // element named `!…`; no XML name starts with `!`, so such a document is not well-formed.
  transformTagName: (name) => {
    if (name.startsWith('!')) throw /^!(doctype|entity)$/i.test(name) ? new DoctypeRefused() : new StrayDeclaration();
    return name;
  },
  // The parser throws once its stack of open elements exceeds this, i.e. at depth MAX + 1.
  maxNestedTags: MAX_XML_DEPTH - 1,
});

export type XmlResult = { ok: true; data: Record<string, unknown> } | { ok: false; message: string };

export function parseXml(text: string): XmlResult {
  let data: Record<string, unknown>;
  // Parse before validating: the parser stops at the depth cap at once, the validator would walk it all.
  try {
    data = parser.parse(text) as Record<string, unknown>;
  } catch (err) {
    return { ok: false, message: parseFailure(err) };
  }
  // The parser is lenient; the validator decides well-formedness.
  const valid = XMLValidator.validate(text);
  if (valid !== true)
    return { ok: false, message: `The body is not well-formed XML (line ${valid.err.line}: ${valid.err.msg})` };
  // The validator misses several self-closing roots (`<a/><b/>`); one document has one root element.
  const roots = Object.values(data);
  if (roots.length !== 1 || Array.isArray(roots[0]))
    return { ok: false, message: 'The XML body must have exactly one root element.' };
  return { ok: true, data };
}

function parseFailure(err: unknown): string {
  if (err instanceof DoctypeRefused) return 'XML with a DOCTYPE or ENTITY declaration is not accepted.';
  if (err instanceof StrayDeclaration) return 'The body is not well-formed XML (a `<!` declaration outside a DOCTYPE).';
  if (err instanceof BadCharacterReference)
    return 'The body is not well-formed XML (a character reference to a character XML does not allow).';
  if (err instanceof Error && /nested tags/i.test(err.message))
    return `XML nesting deeper than ${MAX_XML_DEPTH} levels is not accepted.`;
  return 'The body is not well-formed XML.';
}
