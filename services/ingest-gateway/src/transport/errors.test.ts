import { PassThrough } from 'node:stream';
import express from 'express';
import type { Request, Response } from 'express';
import request from 'supertest';
import { createLogger } from '@relay/logging';
import { createGatewayMetrics } from '../adapters/metrics';
import { errorHandler } from './errors';
import { readRawBody } from './read-body';

/** The app's one error path: whatever throws, a sender still connected gets an answer. */
function appThatFails(afterBodyRead: boolean, seen: { destroyed?: boolean } = {}) {
  const app = express();
  const logger = createLogger({ service: 'test', level: 'error', stream: new PassThrough() });
  app.post('/relay/:id', async (req: Request, res: Response, next) => {
    if (afterBodyRead) await readRawBody(req, res, { maxBytes: 1024, timeoutMs: 1000 });
    seen.destroyed = req.destroyed;
    next(new Error('a bug'));
  });
  app.use(errorHandler({ logger, metrics: createGatewayMetrics() }));
  return app;
}

describe('the gateway error path', () => {
  it('answers 500 internal_error to an error thrown after the body was read, although req.destroyed is then true (Node 20)', async () => {
    const seen: { destroyed?: boolean } = {};
    const res = await request(appThatFails(true, seen))
      .post('/relay/ep_1')
      .set('content-type', 'application/json')
      .send('{"a":1}');
    expect(seen.destroyed).toBe(true);
    expect([res.status, res.body]).toEqual([500, { code: 'internal_error', message: 'Internal error.' }]);
  });

  it('answers 500 internal_error to an error thrown before the body was read', async () => {
    const res = await request(appThatFails(false))
      .post('/relay/ep_1')
      .set('content-type', 'application/json')
      .send('{"a":1}');
    expect([res.status, res.body.code]).toEqual([500, 'internal_error']);
  });

  it('answers an undecodable path with 400 malformed_path, not 500', async () => {
    const res = await request(appThatFails(false)).post('/relay/%ZZ').send('{}');
    expect([res.status, res.body.code]).toEqual([400, 'malformed_path']);
  });
});
