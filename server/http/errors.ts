import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { percentDecoded } from '../../shared/rules/percent-decoding.js';
import { StoreUnavailableError } from '../store/store-errors.js';

/** The one error class: its code and status reach the client as `{ error: { code, message, details } }`. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (what: string) => new AppError(404, 'not_found', `${what} not found`);

/** RULES 2.11: what an address whose escapes spell no text is told, as a page (2.11) or in the error shape. */
export const BAD_PATH_ESCAPE = {
  code: 'bad_path_escape',
  message:
    'This address has a % that does not start an escape this site can read (a % and two hexadecimal digits, ' +
    'together spelling UTF-8). Check the link, or search for what you were looking for.',
} as const;

/**
 * RULES 2.11: an address a route or the file server cannot read: its escapes spell no text, or it has a `.` or `..`
 * segment (which a browser takes out before it asks; a file server would climb out of its folder or answer with a
 * redirect page of its own). Undefined for an address that can be read.
 */
export function addressProblem(pathname: string): AppError | undefined {
  const decoded = percentDecoded(pathname);
  if (decoded === undefined) return new AppError(400, BAD_PATH_ESCAPE.code, BAD_PATH_ESCAPE.message);
  if (decoded.split(/[/\\]/).some((segment) => segment === '.' || segment === '..'))
    return new AppError(
      400,
      'dot_segment',
      'This address has a "." or ".." part, which names no page or file here: ask for the address without it.',
    );
  return undefined;
}

/** Any 4xx without a name of its own is answered as a plain 400. */
const FALLBACK_CLIENT_ERROR = 400;

/**
 * An error that says its status and nothing else: the code and message are the status's standard reason
 * (`404` → `not_found`, "Not Found"), so nothing about the server's files or libraries reaches the client.
 */
export function httpError(status: number): AppError {
  const known = STATUS_CODES[status] ? status : FALLBACK_CLIENT_ERROR;
  const reason = STATUS_CODES[known]!;
  const code = reason
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
  return new AppError(known, code, reason);
}

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

function zodDetails(error: ZodError) {
  return error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

/** Turns anything thrown into the JSON error model; never leaks a stack trace. */
export function toErrorResponse(err: unknown): { status: number; body: ErrorBody } {
  if (err instanceof AppError) {
    return { status: err.status, body: { error: { code: err.code, message: err.message, details: err.details } } };
  }
  if (err instanceof StoreUnavailableError) {
    return {
      status: 503,
      body: {
        error: { code: 'store_unavailable', message: 'This is unavailable for a moment; please try again shortly.' },
      },
    };
  }
  // The router's reading of a path parameter whose escapes spell no text (`/api/events/%zz`).
  if (err instanceof URIError && (err as { status?: unknown }).status === 400)
    return { status: 400, body: { error: { ...BAD_PATH_ESCAPE } } };
  if (err instanceof ZodError) {
    const details = zodDetails(err);
    const message = details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ');
    return { status: 400, body: { error: { code: 'invalid_request', message, details } } };
  }
  // Library errors in the http-errors style carry a 4xx status of their own. body-parser's (a string `type`
  // such as `entity.too.large`) describe the request body and keep their message; any other library's message
  // (serve-static's `ENOENT … stat '/srv/…'`, say) stays on the server, and the client gets the status alone.
  const status =
    (err as { status?: unknown; statusCode?: unknown })?.status ?? (err as { statusCode?: unknown })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const type = (err as { type?: unknown }).type;
    if (typeof type === 'string' && err instanceof Error && err.message) {
      return { status, body: { error: { code: type.replaceAll('.', '_'), message: bodyErrorMessage(err, type) } } };
    }
    // A body whose bytes its Content-Encoding does not decode: zlib's codes (`Z_DATA_ERROR`), brotli's
    // (`ERR__ERROR_FORMAT_PADDING_1`) and zstd's (`ZSTD_error_…`).
    const code = (err as { code?: unknown }).code;
    if (status === 400 && typeof code === 'string' && /^(Z_|ERR__ERROR_|ERR_ZLIB|ZSTD_)/.test(code)) {
      const message = 'The body is not what its Content-Encoding says: it does not decompress';
      return { status, body: { error: { code: 'bad_content_encoding', message } } };
    }
    const plain = httpError(status);
    return { status: plain.status, body: { error: { code: plain.code, message: plain.message } } };
  }
  return { status: 500, body: { error: { code: 'internal', message: 'Internal server error' } } };
}

/**
 * body-parser's message for its error, but for one: JSON that is valid but not an object or array, which its strict
 * mode refuses as though it were not JSON at all.
 */
function bodyErrorMessage(err: Error, type: string): string {
  if (type !== 'entity.parse.failed') return err.message;
  const raw = (err as { body?: unknown }).body;
  if (typeof raw !== 'string') return err.message;
  try {
    const value: unknown = JSON.parse(raw);
    if (value === null || typeof value !== 'object')
      return `The body must be a JSON object or array; this one is ${value === null ? 'null' : `a ${typeof value}`}`;
  } catch {
    // Not JSON: the parser's own message says where it stopped.
  }
  return err.message;
}

/**
 * How soon a client may retry an answer that says the store is away for a moment (RFC 9110 §10.2.3): a few
 * of a node's reconnection probes.
 */
const STORE_RETRY_AFTER_SECONDS = 5;

export const errorMiddleware: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  const { status, body } = toErrorResponse(err);
  // The store being away is expected now and then and is answered 503 on purpose: a warning, not an error.
  if (body.error.code === 'store_unavailable')
    req.log?.warn(
      { code: body.error.code, err: err instanceof AppError && err.cause ? err.cause : err },
      body.error.message,
    );
  else if (status >= 500) req.log?.error({ err }, 'request failed');
  else req.log?.info({ code: body.error.code }, body.error.message);
  if (status === 503) res.set('Retry-After', String(STORE_RETRY_AFTER_SECONDS));
  // A refusal or a failure is never kept, whatever the route said it would keep (an edge-cacheable answer); one
  // that already says so (a personal page's `private, no-store`) stays as it is.
  if (!/\bno-store\b/.test(String(res.getHeader('Cache-Control') ?? ''))) res.set('Cache-Control', 'no-store');
  res.status(status).json(body);
};

/** The 404 of an address under `/api` no route answers, named as the client sent it (its mount point included). */
const noRoute = (req: Request, api = 'API') =>
  new AppError(404, 'not_found', `No ${api} route for ${req.method} ${req.originalUrl.split('?')[0]}`);

export const apiNotFound: RequestHandler = (req) => {
  throw noRoute(req);
};

/** A router's stack, as far as reading which methods an address takes needs (the `router` package of Express 5). */
interface StackLayer {
  /** What of `path` the layer matches (its mount point, for a router mounted under one), or false. */
  match(path: string): { path: string } | false;
  route?: { methods: Record<string, boolean | undefined> };
  handle?: { stack?: unknown };
}

/**
 * The methods `router`'s routes take at `path`, those of the routers it mounts included (HEAD with GET, as
 * Express answers it); null when one of them takes any method (`all`).
 */
export function methodsAt(router: { stack: readonly unknown[] }, path: string): Set<string> | null {
  const methods = new Set<string>();
  for (const layer of router.stack as readonly StackLayer[]) {
    const mounted = layer.route ? undefined : layer.handle?.stack;
    if (!layer.route && !Array.isArray(mounted)) continue;
    const matched = layer.match(path);
    if (!matched) continue;
    if (layer.route) {
      for (const [method, takes] of Object.entries(layer.route.methods)) {
        if (!takes) continue;
        if (method === '_all') return null;
        methods.add(method.toUpperCase());
        if (method === 'get') methods.add('HEAD');
      }
    } else {
      const inner = methodsAt({ stack: mounted as unknown[] }, path.slice(matched.path.length) || '/');
      if (inner === null) return null;
      for (const method of inner) methods.add(method);
    }
  }
  return methods;
}

/**
 * The answer to a request no route of `router` answered (RULES 14.14): a method its routes do not take at an
 * address they do answer is 405 naming those they take (`Allow`), and OPTIONS there is told them as Express's
 * router tells it of the routes it holds (200, the list as text); anything else is a 404 naming the address as sent,
 * under `api`'s name ("No mail API route for GET /api/admin/mail/x").
 */
export function noRouteIn(router: { stack: readonly unknown[] }, api = 'API'): RequestHandler {
  return (req, res, next) => {
    const methods = methodsAt(router, req.path);
    if (!methods || methods.size === 0 || methods.has(req.method)) return next(noRoute(req, api));
    const allow = [...methods].join(', ');
    if (req.method === 'OPTIONS') {
      res.status(200).set('Allow', allow).type('text/plain').send(allow);
      return;
    }
    res.set('Allow', allow);
    next(
      new AppError(
        405,
        'method_not_allowed',
        `${req.method} is not answered at ${req.baseUrl}${req.path}: it is asked with ${allow}`,
      ),
    );
  };
}
