import { fitMessage, CAPS, omittedBlocksNote, TEXT_MARKER } from './caps';

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

describe('Block-style platform caps (cut, never refused)', () => {
  it('message text past 40,000 is cut with a marker', () => {
    const out = fitMessage({ text: 'a'.repeat(45_000) });
    expect(out.text).toBe('a'.repeat(CAPS.text - TEXT_MARKER.length) + TEXT_MARKER);
  });

  it('more than 50 blocks: 49 are kept and the 50th says how many were omitted', () => {
    const blocks = Array.from({ length: 60 }, (_v, i) => section(`b${i}`));
    const out = fitMessage({ blocks }).blocks as unknown[];
    expect(out).toHaveLength(50);
    expect(out[48]).toEqual(section('b48'));
    expect(out[49]).toEqual(omittedBlocksNote(11));
  });

  it('exactly 50 blocks are untouched', () => {
    const blocks = Array.from({ length: 50 }, (_v, i) => section(`b${i}`));
    expect(fitMessage({ blocks }).blocks).toEqual(blocks);
  });

  it('section text past 3,000 is cut; fields to 10 × 2,000; header text to 150', () => {
    const fields = Array.from({ length: 12 }, () => ({ type: 'mrkdwn', text: 'f'.repeat(2500) }));
    const out = fitMessage({
      blocks: [
        section('s'.repeat(3500)),
        { type: 'section', fields },
        { type: 'header', text: { type: 'plain_text', text: 'h'.repeat(200) } },
      ],
    }).blocks as Array<Record<string, any>>;
    expect(out[0]!.text.text).toHaveLength(CAPS.sectionText);
    expect(out[0]!.text.type).toBe('mrkdwn');
    expect(out[1]!.fields).toHaveLength(10);
    for (const f of out[1]!.fields) expect(f.text).toHaveLength(CAPS.sectionFieldText);
    expect(out[2]!.text.text).toHaveLength(CAPS.headerText);
  });

  it('more than 100 attachments: the first 100 are kept', () => {
    const attachments = Array.from({ length: 120 }, (_v, i) => ({ text: `a${i}` }));
    expect((fitMessage({ attachments }).attachments as unknown[]).length).toBe(100);
  });

  it('leaves messages within the caps exactly as they were', () => {
    const msg = { text: 'x', blocks: [section('y'), { type: 'divider' }], attachments: [{ text: 'z' }] };
    expect(fitMessage(msg)).toEqual(msg);
  });
});
