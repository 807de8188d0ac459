import { readPayload } from './read-payload';
import { request, settings } from './test-helpers';
import { MAX_XML_DEPTH, parseXml } from './xml';

const readXml = (xml: string) => readPayload('xml', request({ contentType: 'application/xml', rawBody: Buffer.from(xml) }), settings({ limits: { payloadBytes: 10 * 1024 * 1024 } }));
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
    ['an external entity (XXE)', '<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><foo>&xxe;</foo>'],
    ['a DOCTYPE without entities', '<!DOCTYPE note SYSTEM "note.dtd"><note>x</note>'],
    ['a lower-case doctype', '<!doctype note><note>x</note>'],
    ['an ENTITY declaration outside a DOCTYPE', '<a><!ENTITY x "y"></a>'],
  ])('%s → 400 MALFORMED_PAYLOAD, nothing expanded', (_case, xml) => {
    const result = readXml(xml);
    expect(result).toMatchObject({ ok: false, status: 400, code: 'MALFORMED_PAYLOAD' });
    expect(!result.ok && result.message).toMatch(/DOCTYPE|ENTITY|well-formed/);
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

  it('mixed content keeps its text under #text', () => {
    expect(parseXml('<a k="v">hello</a>')).toEqual({ ok: true, data: { a: { '@k': 'v', '#text': 'hello' } } });
  });
});
