import type { Server } from 'node:http';
import type { Logger } from '@relay/logging';

type Closer = () => Promise<unknown>;

/**
 * Runs `closers` in order on SIGTERM/SIGINT (stop intake first, then drain, then close
 * connections), bounded by `graceMs`, then exits. A second signal exits at once.
 */
export function onShutdown(logger: Logger, graceMs: number, closers: Closer[]): void {
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info('shutting down', { signal });
    const force = setTimeout(() => {
      logger.warn('shutdown grace period elapsed; exiting');
      process.exit(1);
    }, graceMs + 2000);
    force.unref();
    void (async () => {
      for (const close of closers) {
        try {
          await close();
        } catch (err) {
          logger.warn('shutdown step failed', { error: (err as Error).message });
        }
      }
      logger.info('shutdown complete');
      process.exit(0);
    })();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * Stops accepting connections and waits for in-flight requests to finish. A keep-alive
 * connection becomes idle only after its in-flight response, and would otherwise hold the
 * close open for the whole keep-alive timeout, so idle connections are closed until done.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.close(() => {
      clearInterval(sweep);
      resolve();
    });
    server.closeIdleConnections();
  });
}

export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

/**
 * Reports a start-up failure on stderr and exits instead of leaving a half-started process.
 * Plain stderr, not the JSON log: the failure is often the config the logger is built from.
 */
export function runMain(main: () => Promise<void>): void {
  main().catch((err: Error) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  });
}
