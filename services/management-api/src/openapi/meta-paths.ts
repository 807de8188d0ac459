import { bool, json, object, oneOfValues, op } from './kit';
import type { Schema } from './kit';

/* The open routes: health checks, this document and its reference page. No API key. */

const checks = object({ mongodb: bool(), redis: bool() }, ['mongodb', 'redis']);

export const metaPaths: Record<string, Schema> = {
  '/healthz': {
    get: op({
      operationId: 'healthz',
      summary: 'Alive',
      description: 'The process is alive; no dependency is checked.',
      tags: ['Meta'],
      responses: { '200': json(object({ status: { type: 'string', const: 'ok' } }, ['status']), 'Alive.') },
    }),
  },
  '/readyz': {
    get: op({
      operationId: 'readyz',
      summary: 'Ready',
      description: 'Every dependency (the store, Redis) answered; 503 with the failing names otherwise.',
      tags: ['Meta'],
      responses: {
        '200': json(object({ status: { type: 'string', const: 'ready' }, checks }, ['status', 'checks']), 'Ready.'),
        '503': json(
          object({ status: oneOfValues(['not_ready']), checks }, ['status', 'checks']),
          'A dependency did not answer.',
        ),
      },
    }),
  },
  '/v1/openapi.json': {
    get: op({
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      description: 'The OpenAPI 3.1 description of the management API: the source the API validates requests with.',
      tags: ['Meta'],
      responses: {
        '200': json(
          {
            type: 'object',
            required: ['openapi', 'info', 'paths'],
            properties: {
              openapi: { type: 'string', const: '3.1.0' },
              info: { type: 'object' },
              paths: { type: 'object' },
            },
          },
          'The document.',
        ),
      },
    }),
  },
  '/v1/docs': {
    get: op({
      operationId: 'getReference',
      summary: 'Reference page',
      description: 'This document as one HTML page, rendered by the management API itself (no script, no network).',
      tags: ['Meta'],
      responses: { '200': { description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } } },
    }),
  },
};
