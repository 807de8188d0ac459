import { deliveryPosition } from './headers';

describe('deliveryPosition: the attempt a received copy represents', () => {
  it.each([
    ['first delivery', 1, undefined, { attempt: 1, scheduleBase: 1 }],
    ['a retry (fresh message, attempt already + 1)', 3, {}, { attempt: 3, scheduleBase: 1 }],
    [
      'redelivered once after a crash (x-delivery-count 1)',
      1,
      { 'x-delivery-count': 1 },
      { attempt: 2, scheduleBase: 1 },
    ],
    ['redelivered retry', 3, { 'x-delivery-count': 2 }, { attempt: 5, scheduleBase: 1 }],
    ['redriven (schedule base header)', 7, { 'x-relay-schedule-base': 7 }, { attempt: 7, scheduleBase: 7 }],
    [
      'held (the end of its wait)',
      2,
      { 'x-relay-hold-until': 1_790_000_000_123 },
      { attempt: 2, scheduleBase: 1, holdUntil: 1_790_000_000_123 },
    ],
    [
      'expired from a CLI session target backlog',
      2,
      { 'x-first-death-reason': 'expired', 'x-first-death-queue': 'relay.cli.backlog.tg_1' },
      { attempt: 2, scheduleBase: 1, keptTooLong: true },
    ],
    [
      'expired from a retry tier: an ordinary retry',
      2,
      { 'x-first-death-reason': 'expired', 'x-first-death-queue': 'relay.deliveries.outputs.retry.5000' },
      { attempt: 2, scheduleBase: 1 },
    ],
    [
      'garbage headers are ignored',
      2,
      { 'x-delivery-count': 'x', 'x-relay-schedule-base': -3, 'x-relay-hold-until': 'soon' },
      { attempt: 2, scheduleBase: 1 },
    ],
  ])('%s', (_n, attempt, headers, expected) => {
    expect(deliveryPosition(attempt, headers)).toEqual(expected);
  });
});
