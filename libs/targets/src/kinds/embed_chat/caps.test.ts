import { embedCharacters, fitEmbeds, fitMessage, CONTENT_MARKER, CAPS, omittedEmbedsNote } from './caps';

const chars = (n: number, c = 'a'): string => c.repeat(n);

describe('Embed-style platform caps (cut, never refused)', () => {
  it.each([
    ['content at the limit is untouched', chars(2000), chars(2000)],
    ['content past 2,000 is cut with a marker', chars(2500), chars(2000 - CONTENT_MARKER.length) + CONTENT_MARKER],
  ])('%s', (_n, content, expected) => {
    expect(fitMessage({ content }).content).toBe(expected);
  });

  it('a surrogate pair is never split', () => {
    const content = `${chars(2000 - CONTENT_MARKER.length - 1)}${'😀'.repeat(10)}`;
    const out = fitMessage({ content }).content as string;
    expect(out.length).toBeLessThanOrEqual(2000);
    expect(out).toBe(`${chars(2000 - CONTENT_MARKER.length - 1)}${CONTENT_MARKER}`);
  });

  it.each([
    ['title', { title: chars(300) }, 'title', CAPS.title],
    ['description', { description: chars(5000) }, 'description', CAPS.description],
  ])('embed %s is cut to its limit', (_n, embed, key, limit) => {
    const [out] = fitEmbeds([embed]).embeds as Array<Record<string, string>>;
    expect(out![key]).toHaveLength(limit);
    expect(out![key]!.endsWith('…')).toBe(true);
  });

  it('author name 256, footer text 2,048, fields 25 × (name 256, value 1,024)', () => {
    const fields = Array.from({ length: 30 }, () => ({ name: chars(300), value: chars(2000), inline: true }));
    const [out] = fitEmbeds([{ author: { name: chars(300), url: 'u' }, footer: { text: chars(3000) }, fields }])
      .embeds as Array<Record<string, any>>;
    expect(out!.author).toEqual({ name: chars(255) + '…', url: 'u' });
    expect(out!.footer.text.length).toBeLessThanOrEqual(CAPS.footerText);
    expect(out!.fields.length).toBeLessThanOrEqual(CAPS.fields);
    for (const f of out!.fields) {
      expect(f.name.length).toBeLessThanOrEqual(256);
      expect(f.value.length).toBeLessThanOrEqual(1024);
      expect(f.value.length).toBeGreaterThan(0);
      expect(f.inline).toBe(true);
    }
  });

  it('all embeds together stay within 6,000 characters; embeds that no longer fit are dropped', () => {
    const embeds = Array.from({ length: 5 }, (_v, i) => ({ title: `t${i}`, description: chars(2500) }));
    const { embeds: out, omitted } = fitEmbeds(embeds);
    expect(embedCharacters(out)).toBeLessThanOrEqual(CAPS.embedTotal);
    expect(out.length + omitted).toBe(5);
    expect(omitted).toBeGreaterThan(0);
  });

  it('more than 10 embeds: the first 10 are kept and the content says how many were omitted', () => {
    const embeds = Array.from({ length: 13 }, (_v, i) => ({ title: `t${i}` }));
    const out = fitMessage({ content: 'hi', embeds });
    expect((out.embeds as unknown[]).length).toBe(10);
    expect(out.content).toBe(`hi\n${omittedEmbedsNote(3)}`);
  });

  it('the omitted-embeds note survives a content cut', () => {
    const out = fitMessage({ content: chars(2000), embeds: Array.from({ length: 11 }, () => ({ title: 't' })) });
    expect((out.content as string).length).toBeLessThanOrEqual(2000);
    expect(out.content as string).toMatch(/1 embed omitted/);
  });

  it('leaves messages within the caps exactly as they were', () => {
    const msg = { content: 'x', embeds: [{ title: 'a', fields: [{ name: 'n', value: 'v' }], color: 5 }], tts: false };
    expect(fitMessage(msg)).toEqual(msg);
  });
});
