import type { Server } from 'node:http';
import type { Logger } from 'pino';

/**
 * Stops a server gracefully: no new connections, requests in flight run to completion, idle keep-alive
 * sockets are closed; after `timeoutMs` whatever is left is cut. Resolves once the server has closed.
 */
export function gracefulClose(server: Server, timeoutMs: number, logger?: Logger): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      logger?.warn('shutdown timeout: closing remaining connections');
      server.closeAllConnections();
    }, timeoutMs);
    timer.unref();
    server.close((err) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * Wires SIGTERM and SIGINT to a graceful close followed by exit; `beforeClose` ends long-lived work first.
 * Started by a parent with an IPC channel (`npm start`), the server closes the same way when that channel
 * does: a parent killed outright (SIGKILL) leaves no server holding the port. A repeated signal changes
 * nothing: a terminal's Ctrl-C reaches both `npm start` and the server, which passes it on as well.
 */
export function exitOnSignals(
  server: Server,
  timeoutMs: number,
  logger: Logger,
  beforeClose?: () => void,
  afterClose?: () => Promise<void>,
): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals | 'disconnect') => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    beforeClose?.();
    gracefulClose(server, timeoutMs, logger)
      .then(() => afterClose?.())
      .then(
        () => {
          logger.info('stopped');
          process.exit(0);
        },
        (err: unknown) => {
          logger.error({ err }, 'error while closing');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // `process.send` exists when started with a channel; not connected any more means the parent is gone already.
  if (process.send) {
    if (process.connected) process.once('disconnect', () => stop('disconnect'));
    else stop('disconnect');
  }
}
