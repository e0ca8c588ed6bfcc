import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';

/**
 * gzip/brotli for everything compressible (the client bundle shrinks about 3.5×, JSON answers more), except
 * server-sent events, which must reach the browser as each one is written rather than when a buffer fills, and a
 * request for a range of a file: its `Content-Range` counts the file's own bytes, which a compressed part would not
 * be.
 */
export function compressResponses(): RequestHandler {
  const compress = compression({
    threshold: 1024,
    filter: (req: Request, res: Response) => {
      if (req.headers.accept?.includes('text/event-stream') || req.path.startsWith('/sub/')) return false;
      if (req.headers.range) return false;
      return compression.filter(req, res);
    },
  });
  // A client that accepts no encoding gets nothing from the wrapper around every write: skip it.
  return (req, res, next) => (req.headers['accept-encoding'] ? compress(req, res, next) : next());
}
