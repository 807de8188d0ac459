import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PreviewResult } from './api';
import { run } from './main';
import { previewOnEvents, resultLines, UsageError } from './transform-test';
import type { PreviewApi } from './transform-test';

const request = (body: unknown) => ({ method: 'POST', path: '/relay/ep_1', query: {}, headers: {}, body });

describe('relay transform test: what is printed per request', () => {
  it('ran: the time, the output as indented JSON, the diff as path: before → after, the console lines', () => {
    const r: PreviewResult = {
      event_id: 'evt_1',
      input: request({ type: 'charge.succeeded', amount: 1250 }),
      output: request({ text: 'paid 12.5' }),
      dropped: false,
      diff: {
        changes: [
          { path: 'body.type', before: 'charge.succeeded' },
          { path: 'body.amount', before: 1250 },
          { path: 'body.text', after: 'paid 12.5' },
        ],
        total: 3,
      },
      logs: ['amount 1250'],
      duration_ms: 0.4,
      error: null,
      line: null,
    };
    expect(resultLines(r)).toEqual([
      'evt_1  ran in 0.4 ms',
      '  output:',
      '    {',
      '      "method": "POST",',
      '      "path": "/relay/ep_1",',
      '      "query": {},',
      '      "headers": {},',
      '      "body": {',
      '        "text": "paid 12.5"',
      '      }',
      '    }',
      '  diff (3 changes):',
      '    body.type: "charge.succeeded" → (none)',
      '    body.amount: 1250 → (none)',
      '    body.text: (none) → "paid 12.5"',
      '  logs:',
      '    amount 1250',
    ]);
  });

  it('failed: the error with its line, and the console lines written before the throw', () => {
    const r: PreviewResult = {
      event_id: 'evt_2',
      input: request({ n: 0 }),
      output: null,
      dropped: false,
      diff: null,
      logs: ['n 0'],
      duration_ms: 0.3,
      error: 'Error: zero',
      line: 3,
    };
    expect(resultLines(r)).toEqual(['evt_2  failed in 0.3 ms', '  error: line 3: Error: zero', '  logs:', '    n 0']);
  });

  it('a failure without a line (a result that is not a request), a drop, an event with no stored request', () => {
    const base = { event_id: 'evt_3', input: request({}), diff: null, logs: [], duration_ms: 1 };
    expect(resultLines({ ...base, output: null, dropped: false, error: 'invalid result: body', line: null })).toEqual([
      'evt_3  failed in 1 ms',
      '  error: invalid result: body',
    ]);
    expect(resultLines({ ...base, output: null, dropped: true, error: null, line: null })).toEqual([
      'evt_3  dropped (returned null) in 1 ms',
    ]);
    expect(resultLines({ event_id: 'evt_4', error: 'no stored request for this event on this endpoint' })).toEqual([
      'evt_4  not run: no stored request for this event on this endpoint',
    ]);
  });

  it('a diff longer than the changes listed says how many more', () => {
    const r: PreviewResult = {
      event_id: 'evt_5',
      input: request({}),
      output: request({ a: 1 }),
      dropped: false,
      diff: { changes: [{ path: 'body.a', after: 1 }], total: 201 },
      logs: [],
      duration_ms: 2,
      error: null,
      line: null,
    };
    expect(resultLines(r).slice(-3)).toEqual(['  diff (201 changes):', '    body.a: (none) → 1', '    … and 200 more']);
  });
});

describe('relay transform test: which endpoint runs the preview', () => {
  const fake = (endpointOf: Record<string, string>) => {
    const asked: Array<{ endpointId: string; body: unknown }> = [];
    const api: PreviewApi = {
      activityRow: async (id) => ({ id, endpoint_id: endpointOf[id]! }),
      previewTransformation: async (endpointId, body) => {
        asked.push({ endpointId, body });
        return { data: [] };
      },
    };
    return { api, asked };
  };

  it("the events' endpoint, read from their activity rows; the target when given", async () => {
    const { api, asked } = fake({ evt_1: 'ep_a', evt_2: 'ep_a' });
    await previewOnEvents(api, { code: '(r) => r', eventIds: ['evt_1', 'evt_2'], targetId: 'tg_1' });
    expect(asked).toEqual([
      { endpointId: 'ep_a', body: { code: '(r) => r', event_ids: ['evt_1', 'evt_2'], target_id: 'tg_1' } },
    ]);
  });

  it('--endpoint: used as given, no activity read', async () => {
    const { api, asked } = fake({});
    await previewOnEvents(api, { code: '(r) => r', eventIds: ['evt_1'], endpointId: 'ep_b' });
    expect(asked).toEqual([{ endpointId: 'ep_b', body: { code: '(r) => r', event_ids: ['evt_1'] } }]);
  });

  it('events of two endpoints: a usage error naming each, nothing previewed', async () => {
    const { api, asked } = fake({ evt_1: 'ep_a', evt_2: 'ep_b' });
    const got = previewOnEvents(api, { code: '(r) => r', eventIds: ['evt_1', 'evt_2'] });
    await expect(got).rejects.toThrow(UsageError);
    await expect(got).rejects.toThrow('evt_1 on ep_a, evt_2 on ep_b');
    expect(asked).toEqual([]);
  });
});

describe('relay transform test: a command line that cannot run exits 2, before any API call', () => {
  let stderr: string;
  let dir: string;
  beforeEach(() => {
    stderr = '';
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    dir = mkdtempSync(path.join(tmpdir(), 'relay-transform-'));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  // an API nobody listens on: reaching it would be exit 1 (network), not 2
  const relay = (...args: string[]) =>
    run(['node', 'relay', '--api-url', 'http://127.0.0.1:9', '--api-key', 'rk_unused', 'transform', 'test', ...args]);

  it.each([
    ['no --file', ['--event', 'evt_1'], /required option '--file <path>' not specified/],
    ['no --event', ['--file', 't.js'], /required option '--event <id>' not specified/],
    ['an unknown option', ['--file', 't.js', '--event', 'evt_1', '--evnt', 'x'], /unknown option '--evnt'/],
  ])('%s', async (_what, args, message) => {
    expect(await relay(...args)).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('a file that cannot be read', async () => {
    expect(await relay('--file', path.join(dir, 'missing.js'), '--event', 'evt_1')).toBe(2);
    expect(stderr).toBe(`relay: cannot read ${path.join(dir, 'missing.js')}: ENOENT\n`);
  });

  it('`relay transform` without its subcommand', async () => {
    expect(await run(['node', 'relay', 'transform'])).toBe(2);
    expect(stderr).toMatch(/Usage: relay transform/);
  });
});
