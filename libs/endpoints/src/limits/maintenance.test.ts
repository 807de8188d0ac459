import { isPaused, parseIsoDateTime, pauseState, validateMaintenanceWindows } from './maintenance';

const window = (starts_at: string, ends_at: string) => ({ starts_at, ends_at });

describe('validateMaintenanceWindows (save time)', () => {
  it('accepts ISO 8601 date-times with a time zone', () => {
    const windows = [
      window('2025-03-01T02:00:00Z', '2025-03-01T04:00:00Z'),
      window('2025-03-02T02:00+01:00', '2025-03-02T02:30:00.5+01:00'),
    ];
    expect(validateMaintenanceWindows(windows)).toEqual({ ok: true, value: windows });
  });

  it.each([
    [
      'ends before it starts',
      window('2025-03-01T04:00:00Z', '2025-03-01T02:00:00Z'),
      'maintenance_windows[0].ends_at',
      'after starts_at',
    ],
    [
      'ends when it starts',
      window('2025-03-01T04:00:00Z', '2025-03-01T05:00:00+01:00'),
      'maintenance_windows[0].ends_at',
      'after starts_at',
    ],
    [
      'no time zone',
      window('2025-03-01T02:00:00', '2025-03-01T04:00:00Z'),
      'maintenance_windows[0].starts_at',
      'ISO 8601',
    ],
    ['a date only', window('2025-03-01T02:00:00Z', '2025-03-02'), 'maintenance_windows[0].ends_at', 'ISO 8601'],
    [
      'a day that does not exist',
      window('2025-02-29T00:00:00Z', '2025-03-02T00:00:00Z'),
      'maintenance_windows[0].starts_at',
      'ISO 8601',
    ],
    [
      'an hour that does not exist',
      window('2025-03-01T24:00:00Z', '2025-03-02T00:00:00Z'),
      'maintenance_windows[0].starts_at',
      'ISO 8601',
    ],
  ])('rejects a window that %s', (_case, w, field, message) => {
    expect(validateMaintenanceWindows([w])).toEqual({
      ok: false,
      errors: [{ field, message: expect.stringContaining(message) }],
    });
  });

  it('parses leap days that exist', () => {
    expect(parseIsoDateTime('2024-02-29T12:00:00Z')).toBe(Date.UTC(2024, 1, 29, 12));
  });
});

describe('pause state (States and transitions: manual pause or scheduled maintenance window)', () => {
  const windows = [
    window('2025-03-01T02:00:00Z', '2025-03-01T04:00:00Z'),
    window('2025-03-01T03:00:00Z', '2025-03-01T05:00:00Z'),
  ];
  const at = (iso: string) => new Date(iso);

  it.each([
    ['Enabled: no pause, no window', { paused: false }, '2025-03-01T03:00:00Z', false],
    ['Paused (manual) until resumed', { paused: true }, '2025-03-01T03:00:00Z', true],
    [
      'Paused (scheduled) while a window is active',
      { paused: false, maintenance_windows: windows },
      '2025-03-01T02:00:00Z',
      true,
    ],
    ['before the window starts', { paused: false, maintenance_windows: windows }, '2025-03-01T01:59:59Z', false],
    [
      'Paused (scheduled) → Enabled when the window expires',
      { paused: false, maintenance_windows: windows },
      '2025-03-01T05:00:00Z',
      false,
    ],
  ])('%s', (_row, endpoint, now, paused) => {
    expect(isPaused(endpoint, at(now))).toBe(paused);
  });

  it('a manual pause answers 503 endpoint_unavailable with Retry-After 60', () => {
    expect(pauseState({ paused: true }, at('2025-03-01T00:00:00Z'))).toEqual({
      paused: true,
      reason: 'manual',
      retryAfterSeconds: 60,
    });
  });

  it('an active window gives Retry-After 60 and, for logs, when overlapping windows end', () => {
    expect(pauseState({ paused: false, maintenance_windows: windows }, at('2025-03-01T03:30:00Z'))).toEqual({
      paused: true,
      reason: 'maintenance_window',
      retryAfterSeconds: 60,
      resumesAt: at('2025-03-01T05:00:00Z'),
    });
  });
});
