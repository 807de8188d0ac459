import { readPayload } from './read-payload';
import { request, settings } from './test-helpers';
import { MAX_XML_DEPTH, parseXml } from './xml';

const readXml = (xml: string) =>
  readPayload(
    'xml',
    request({ contentType: 'application/xml', rawBody: Buffer.from(xml) }),
    settings({ limits: { payloadBytes: 10 * 1024 * 1024 } }),
  );
const nested = (depth: number) => `${'<e>'.repeat(depth)}x${'</e>'.repeat(depth)}`;

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<lolz>&lol9;</lolz>`;

describe('XML parsing is hardened', () => {
  it.each([
    ['a billion-laughs document', BILLION_LAUGHS],
    [
      'an external entity (XXE)',
      '<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><foo>&xxe;</foo>',
    ],
    ['a DOCTYPE without entities', '<!DOCTYPE note SYSTEM "note.dtd"><note>x</note>'],
    ['a lower-case doctype', '<!doctype note><note>x</note>'],
    ['an ENTITY declaration outside a DOCTYPE', '<a><!ENTITY x "y"></a>'],
  ])('%s → 400 MALFORMED_PAYLOAD, nothing expanded', (_case, xml) => {
    const result = readXml(xml);
    expect(result).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_PAYLOAD' });
    expect(!result.ok && result.message).toMatch(/DOCTYPE|ENTITY|well-formed/);
  });

  /**
   * The family that beat the hand scan (48 of 48 accepted with the entity
   * expanded): a comment or CDATA opener inside an attribute value made the scan skip to a
   * closer further on, past a DOCTYPE the parser then read and expanded.
   */
  const OPENERS = ['<!--', '<![CDATA['];
  const CLOSERS: Record<string, string> = { '<!--': '-->', '<![CDATA[': ']]>' };
  const QUOTES = ['"', "'"];
  const CARRIERS: [string, (attr: string, doctype: string, closer: string) => string][] = [
    ['the root element', (a, d, c) => `<r a=${a}>${d}<c>&x;</c><d b=${c}/></r>`],
    ['a child element', (a, d, c) => `<r><p a=${a}/>${d}<c>&x;</c><d b=${c}/></r>`],
    ['a processing instruction', (a, d, c) => `<?pi a=${a}?>${d}<r><c>&x;</c><d b=${c}/></r>`],
    ['the XML declaration', (a, d, c) => `<?xml version="1.0" x=${a}?>${d}<r><c>&x;</c><d b=${c}/></r>`],
  ];
  const DOCTYPES = [
    '<!DOCTYPE r [<!ENTITY x "EXPANDED">]>',
    "<!DOCTYPE r[<!ENTITY x 'EXPANDED'>]>",
    '<!DOCTYPE r [ <!ENTITY  x  "EXPANDED" > ]>',
  ];
  const BYPASSES = OPENERS.flatMap((opener) =>
    QUOTES.flatMap((q) =>
      CARRIERS.flatMap(([where, build]) =>
        DOCTYPES.map((doctype, i): [string, string] => [
          `${opener} in a ${q}-quoted attribute of ${where}, DOCTYPE form ${i + 1}`,
          build(`${q}${opener}${q}`, doctype, `${q}${CLOSERS[opener]}${q}`),
        ]),
      ),
    ),
  );

  it('the bypass family has 48 members', () => {
    expect(BYPASSES).toHaveLength(48);
  });

  it.each(BYPASSES)('%s → 400, the entity never expanded', (_case, xml) => {
    const result = readXml(xml);
    expect(result).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_PAYLOAD' });
    expect(JSON.stringify(result)).not.toContain('EXPANDED');
  });

  it('DOCTYPE text quoted inside CDATA or a comment is ordinary content', () => {
    expect(parseXml('<mail><!-- <!DOCTYPE x> --><html><![CDATA[<!DOCTYPE html><p>hi</p>]]></html></mail>')).toEqual({
      ok: true,
      data: { mail: { html: '<!DOCTYPE html><p>hi</p>' } },
    });
  });

  it(`nesting up to ${MAX_XML_DEPTH} levels is accepted`, () => {
    expect(readXml(nested(MAX_XML_DEPTH)).ok).toBe(true);
  });

  it(`nesting deeper than ${MAX_XML_DEPTH} levels → 400 MALFORMED_PAYLOAD`, () => {
    expect(readXml(nested(MAX_XML_DEPTH + 1))).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_PAYLOAD' });
  });

  it('very deep nesting (100,000 levels) is refused without exhausting the stack', () => {
    expect(readXml(nested(100_000))).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_PAYLOAD' });
  });

  it('predefined entities and character references are decoded; values stay strings', () => {
    expect(parseXml('<a n="1 &amp; 2"><b>A &amp; B &lt;&#x41;&#66;&gt;</b><c>0012</c><d>true</d><e/></a>')).toEqual({
      ok: true,
      data: { a: { '@n': '1 & 2', b: 'A & B <AB>', c: '0012', d: 'true', e: '' } },
    });
  });

  it('DOCTYPE text inside an attribute value is ordinary content', () => {
    expect(parseXml('<a b="&lt;!DOCTYPE x [&lt;!ENTITY y &quot;z&quot;&gt;]&gt;">t</a>')).toEqual({
      ok: true,
      data: { a: { '@b': '<!DOCTYPE x [<!ENTITY y "z">]>', '#text': 't' } },
    });
  });

  it('other markup declarations outside a DOCTYPE (<!FOO>) are not well-formed → 400', () => {
    expect(readXml('<a><!FOO bar></a>')).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_PAYLOAD' });
  });

  it.each(['&#0;', '&#x1F;', '&#xD800;', '&#x110000;', '&#99999999999;'])(
    'a character reference to a character XML does not allow (%s) → 400',
    (ref) => {
      expect(readXml(`<a>${ref}</a>`)).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_PAYLOAD' });
    },
  );

  it('entity names XML does not predefine (&nbsp;) are left as written: without a DTD nothing defines them', () => {
    expect(parseXml('<a>x&nbsp;y &copy;</a>')).toEqual({ ok: true, data: { a: 'x&nbsp;y &copy;' } });
  });

  it('mixed content keeps its text under #text', () => {
    expect(parseXml('<a k="v">hello</a>')).toEqual({ ok: true, data: { a: { '@k': 'v', '#text': 'hello' } } });
  });
});
