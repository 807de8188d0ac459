import { backlogLine, mirrorPercent } from './listen';

describe('relay listen --mirror <percent>', () => {
  it.each([
    ['10%', 10],
    ['10', 10],
    ['1%', 1],
    ['100%', 100],
    [' 25 % ', 25],
  ])('%j → %i', (text, want) => expect(mirrorPercent(text)).toBe(want));

  it.each(['0%', '101%', '2.5%', '-5', 'ten', '', '10%%'])('%j is refused', (text) =>
    expect(mirrorPercent(text)).toBeNull(),
  );
});

describe('the backlog count, said first', () => {
  it('nothing when nothing was kept; the count otherwise', () => {
    expect(backlogLine(0)).toBeNull();
    expect(backlogLine(1)).toBe(
      '1 event kept while no session listened: delivering it first, one at a time, in the order accepted',
    );
    expect(backlogLine(1500)).toBe(
      '1,500 events kept while no session listened: delivering them first, one at a time, in the order accepted',
    );
  });
});
