import { readAckFrame } from './cli-ack';

describe('relay listen: the ack frame a CLI sends is read strictly and cut to what the outcome needs', () => {
  it.each([
    [
      'a local answer',
      {
        type: 'ack',
        id: 'a1',
        outcome: { status: 200, duration_ms: 12.4, headers: { 'retry-after': '3', 'set-cookie': 'x' }, body: 'ok' },
      },
      { type: 'ack', id: 'a1', outcome: { status: 200, duration_ms: 12, headers: { 'retry-after': '3' }, body: 'ok' } },
    ],
    [
      'a local network failure',
      {
        type: 'ack',
        id: 'a2',
        outcome: { error: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }, duration_ms: 1 },
      },
      {
        type: 'ack',
        id: 'a2',
        outcome: { error: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }, duration_ms: 1 },
      },
    ],
    [
      'no body or headers',
      { type: 'ack', id: 'a3', outcome: { status: 204, duration_ms: 0 } },
      { type: 'ack', id: 'a3', outcome: { status: 204, duration_ms: 0, headers: {}, body: '' } },
    ],
  ])('%s', (_name, frame, want) => {
    expect(readAckFrame(JSON.stringify(frame))).toEqual(want);
  });

  it('a long body is cut to 2,048 characters', () => {
    const got = readAckFrame(
      JSON.stringify({ type: 'ack', id: 'a', outcome: { status: 500, duration_ms: 1, body: 'x'.repeat(10_000) } }),
    );
    expect(got && 'body' in got.outcome && got.outcome.body.length).toBe(2048);
  });

  it.each([
    ['not JSON', '{'],
    ['another type', JSON.stringify({ type: 'hello', id: 'a' })],
    ['no id', JSON.stringify({ type: 'ack', outcome: { status: 200, duration_ms: 1 } })],
    ['a status out of range', JSON.stringify({ type: 'ack', id: 'a', outcome: { status: 700, duration_ms: 1 } })],
    ['a negative duration', JSON.stringify({ type: 'ack', id: 'a', outcome: { status: 200, duration_ms: -1 } })],
    [
      'an error without a code',
      JSON.stringify({ type: 'ack', id: 'a', outcome: { error: { message: 'x' }, duration_ms: 1 } }),
    ],
    ['an id too long', JSON.stringify({ type: 'ack', id: 'x'.repeat(65), outcome: { status: 200, duration_ms: 1 } })],
    ['an array', '[]'],
  ])('refused: %s', (_name, raw) => {
    expect(readAckFrame(raw)).toBeNull();
  });
});
