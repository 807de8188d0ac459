import { PassThrough } from 'node:stream';
import { createLogger } from './logger';
import { REDACTED } from './redact';

function capture(): { lines: () => Record<string, unknown>[]; stream: PassThrough } {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString()));
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('createLogger', () => {
  it('writes one JSON object per line with the service and snake_case fields', () => {
    const out = capture();
    const log = createLogger({ service: 'ingest-gateway', level: 'info', stream: out.stream });
    log.info('request accepted', { event_id: 'ev_1', endpoint_id: 'ep_1', duration_ms: 3 });
    const [line] = out.lines();
    expect(line).toMatchObject({
      level: 'info',
      message: 'request accepted',
      service: 'ingest-gateway',
      event_id: 'ev_1',
      endpoint_id: 'ep_1',
      duration_ms: 3,
    });
    expect(typeof line?.timestamp).toBe('string');
  });

  it('redacts credentials at any depth, by key name', () => {
    const out = capture();
    const log = createLogger({ service: 's', level: 'info', stream: out.stream });
    log.info('forwarding', {
      headers: { Authorization: 'Bearer abc', 'Stripe-Signature': 't=1,v1=ff', 'x-ok': 'fine' },
      target: { auth: { token: 'tkn', password: 'pw' } },
    });
    const text = JSON.stringify(out.lines()[0]);
    for (const secret of ['Bearer abc', 't=1,v1=ff', 'tkn', '"pw"']) expect(text).not.toContain(secret);
    expect(text).toContain(REDACTED);
    expect(text).toContain('fine');
  });

  it('writes nothing below its level, and follows a level changed at run time', () => {
    const out = capture();
    const log = createLogger({ service: 's', level: 'warn', stream: out.stream });
    log.info('request accepted', { event_id: 'ev_1' });
    log.warn('redis error');
    log.level = 'info';
    log.info('back on Redis');
    expect(out.lines().map((l) => l.message)).toEqual(['redis error', 'back on Redis']);
  });
});
