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
      // An error answer is kept by no cache (RULES 14.14); a 501 would be by default (RFC 9111 §4.2.2).
      'Cache-Control: no-store',
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
export function storefrontServer(
  listener: RequestListener,
  keepAliveTimeout: number,
  { requestTimeoutMs = REQUEST_TIMEOUT_MS }: { requestTimeoutMs?: number } = {},
): Server {
  const server = createServer(
    {
      keepAliveTimeout,
      requireHostHeader: false,
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      // How often Node looks for requests past their time: within a tenth of it.
      connectionsCheckingInterval: Math.max(100, Math.min(requestTimeoutMs / 10, 30_000)),
    },
    requiringHost(listener),
  );
  answerProtocolErrors(server);
  return server;
}

/**
 * How long a request may take to arrive, headers and body (Node waits five minutes): the largest body the server
 * takes (a catalog import of 32 MB) needs about 2.2 Mbit/s; a client that stalls mid-request gets a 408.
 */
const REQUEST_TIMEOUT_MS = 120_000;

/** A request line as HTTP/1.1 writes one (RFC 9112 §3): a method token, a target and the version. */
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [^\s]+ HTTP\/\d\.\d\r?$/;

/**
 * Whether the parser refused a well-formed request line for its method alone, one HTTP does not define or Node does
 * not know (`FOO / HTTP/1.1`): a method the server does not implement (RFC 9110 §9.1), not a request that is not
 * HTTP.
 */
function unknownMethod(err: NodeJS.ErrnoException & { rawPacket?: unknown; bytesParsed?: unknown }): boolean {
  const raw = err.rawPacket;
  if (err.code !== 'HPE_INVALID_METHOD' || !Buffer.isBuffer(raw)) return false;
  // The packet may hold requests before the one refused (pipelined): read the line the parser stopped in.
  const stopped = typeof err.bytesParsed === 'number' ? Math.min(err.bytesParsed, raw.length) : 0;
  const start = stopped > 0 ? raw.lastIndexOf(0x0a, stopped - 1) + 1 : 0;
  const end = raw.indexOf(0x0a, start);
  const line = raw.subarray(start, Math.min(end < 0 ? raw.length : end, start + 8192)).toString('latin1');
  return REQUEST_LINE.test(line);
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
    socket.end(
      err.code === 'HPE_HEADER_OVERFLOW'
        ? rawAnswer(431, 'Request Header Fields Too Large', {
            code: 'request_too_large',
            message: 'The request line and headers must stay under 16 KB',
          })
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? rawAnswer(408, 'Request Timeout', {
              code: 'request_timeout',
              message: 'The whole request did not arrive in time: send it again',
            })
          : unknownMethod(err)
            ? rawAnswer(501, 'Not Implemented', {
                code: 'unknown_method',
                message:
                  'The request names a method this server does not know. Pages are read with GET or HEAD; ' +
                  'the API answers a method it does not take with the ones it does.',
              })
            : rawAnswer(400, 'Bad Request', {
                code: 'malformed_request',
                message: 'The request could not be parsed as HTTP',
              }),
    );
  });
  // An `Expect` other than `100-continue` (RFC 9110 §10.1.1), which Node would refuse with a bare 417.
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) =>
    refuse(res, 417, {
      code: 'expectation_failed',
      message: 'The request has an Expect header this server does not meet: only 100-continue is.',
    }),
  );
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
    let hosts = 0;
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      if (name.length === 4 && name.toLowerCase() === 'host') hosts++;
    }
    if (hosts === 1 || (hosts === 0 && req.httpVersion !== '1.1')) return listener(req, res);
    // Node keeps the first of two Host headers; a proxy in front may have read the other (RFC 9112 §3.2).
    refuse(
      res,
      400,
      hosts === 0
        ? { code: 'missing_host', message: 'An HTTP/1.1 request names the site it is for in a Host header.' }
        : { code: 'duplicate_host', message: 'A request names the site it is for in one Host header, not several.' },
    );
  };
}

/** A refusal in the JSON error model from the HTTP server itself, before any route: no cache keeps it. */
function refuse(res: ServerResponse, status: number, error: ErrorBody['error']): void {
  const body = JSON.stringify({ error });
  res.shouldKeepAlive = false;
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}
