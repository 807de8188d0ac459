import { PassThrough } from 'node:stream';
import { createLogger } from '@relay/logging';
import type { Logger } from '@relay/logging';

/** A real JSON logger whose lines a test can read back. */
export function testLogger(service = 'test'): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c.toString()));
  const logger = createLogger({ service, level: process.env.TEST_LOG_LEVEL ?? 'debug', stream });
  return {
    logger,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
