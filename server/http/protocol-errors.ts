import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorBody } from './errors.js';

/** A whole HTTP/1.1 answer in the JSON error model, for a socket no response object is made for. */
function rawAnswer(status: number, reason: string, error: ErrorBody['error'], headers: string[] = []): string {
  const body = JSON.stringify({ error });
  return (
    `HTTP/1.1 ${status} ${reason}\r\n` +
    [
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      ...headers,
    ].join('\r\n') +
    `\r\n\r\n${body}`
  );
}

/**
 * The HTTP server a node listens with: `listener` behind the checks below, every refusal in the JSON error model.
 * `keepAliveTimeout`: how long an idle kept-alive connection stays open.
 */
export function storefrontServer(listener: RequestListener, keepAliveTimeout: number): Server {
  const server = createServer({ keepAliveTimeout, requireHostHeader: false }, requiringHost(listener));
  answerProtocolErrors(server);
  return server;
}

/**
 * Requests Node's HTTP parser refuses before Express sees them (a URL or headers over 16 KB, malformed
 * framing), and `CONNECT`, which Node hands over as a bare socket, still get the JSON error model, not a bare
 * status line or a closed connection (RULES 14.14).
 */
function answerProtocolErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    socket.end(
      tooLarge
        ? rawAnswer(431, 'Request Header Fields Too Large', {
            code: 'request_too_large',
            message: 'The request line and headers must stay under 16 KB',
          })
        : rawAnswer(400, 'Bad Request', {
            code: 'malformed_request',
            message: 'The request could not be parsed as HTTP',
          }),
    );
  });
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.end(
      rawAnswer(
        405,
        'Method Not Allowed',
        {
          code: 'method_not_allowed',
          message: 'CONNECT is not answered here: this is a web site, not a proxy. Pages are read with GET or HEAD.',
        },
        ['Allow: GET, HEAD'],
      ),
    );
  });
}

/**
 * The server's own check that an HTTP/1.1 request names its host (RFC 9112 §3.2), answered in the JSON error model:
 * Node's own check (`requireHostHeader`, off in `storefrontServer`) answers a bare 400.
 */
function requiringHost(listener: RequestListener): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.host !== undefined || req.httpVersion !== '1.1') return listener(req, res);
    const body = JSON.stringify({
      error: { code: 'missing_host', message: 'An HTTP/1.1 request names the site it is for in a Host header.' },
    });
    res.shouldKeepAlive = false;
    res.writeHead(400, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
    });
    res.end(body);
  };
}
