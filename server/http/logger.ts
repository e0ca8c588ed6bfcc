import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { MAX_QUERY_LENGTH } from '../../shared/rules/constants.js';
import { percentDecoded } from '../../shared/rules/percent-decoding.js';

export const REQUEST_ID_HEADER = 'x-request-id';
// An id a proxy hands us is kept only if it is short and plain, so it cannot forge log lines.
export const INCOMING_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** What stands in a log line for a secret. */
export const REDACTED = '[REDACTED]';

/**
 * Fields never written as they are, should a line ever carry them: a guest's bearer token and cookies in
 * request and response headers, and the search engine's key in the request an HTTP client's error carries
 * (axios, under the Typesense client, as `err.config`). Explicit paths and one wildcard: each wildcard adds
 * microseconds to every line, the fast lane's included.
 */
export const REDACT_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'err.config.headers.authorization',
  'err.config.headers["X-TYPESENSE-API-KEY"]',
  '*.authorization',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: [...REDACT_PATHS], censor: REDACTED },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Query parameters whose value is a credential, compared lowercased with all but letters and digits dropped. */
const SECRET_PARAMS = new Set([
  'token',
  'code',
  'key',
  'sig',
  'auth',
  'pwd',
  'session',
  'authorization',
  'credential',
  'otp',
  'pin',
]);
/** ...and any parameter named as one of these ends (`access_token`, `api_key`, `client_secret`, `X-Amz-Signature`). */
const SECRET_PARAM_ENDINGS =
  /(?:token|secret|password|passwd|signature|apikey|accesskey|privatekey|credential|sessionid)$/;

const isSecretParam = (rawName: string): boolean => {
  const written = rawName.replaceAll('+', ' ');
  // A malformed escape: judged as written.
  const name = percentDecoded(written) ?? written;
  const plain = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return SECRET_PARAMS.has(plain) || SECRET_PARAM_ENDINGS.test(plain);
};

/**
 * The longest query value a log line carries as sent: the longest search (`MAX_QUERY_LENGTH`). Anything longer is
 * no query the storefront answers; the line says how long it was instead of carrying a client's kilobytes.
 */
const LONGEST_LOGGED_VALUE = MAX_QUERY_LENGTH;

/** Characters of `raw` as its reader gets them (percent-encoding and plus signs read). */
function decodedLength(raw: string): number {
  return (percentDecoded(raw.replaceAll('+', ' ')) ?? raw).length;
}

/** A query parameter longer than any query, as its log line gives it (its name and its length); else undefined. */
function tooLongToLog(param: string, eq: number): string | undefined {
  // Encoded text is never shorter than what it spells: most parameters are settled without decoding.
  if (param.length <= LONGEST_LOGGED_VALUE) return undefined;
  const name = eq >= 0 ? param.slice(0, eq) : param;
  if (decodedLength(name) > LONGEST_LOGGED_VALUE) return `[${param.length} characters left out]`;
  const value = eq >= 0 ? param.slice(eq + 1) : '';
  if (decodedLength(value) > LONGEST_LOGGED_VALUE) return `${name}=[${decodedLength(value)} characters left out]`;
  return undefined;
}

/**
 * A path longer than any address of the site's is logged as its start and how much more there was: a request line may
 * be 16 KB, and each line of its request repeats it.
 */
const LONGEST_LOGGED_PATH = 1_000;
const LOGGED_PATH_START = 200;

/** The path as its log lines give it: whole, or its start and how many characters were left out. */
function pathToLog(path: string): string {
  if (path.length <= LONGEST_LOGGED_PATH) return path;
  return `${path.slice(0, LOGGED_PATH_START)}[${path.length - LOGGED_PATH_START} more characters left out]`;
}

/** The token in a preview link's address (its page's or its preview's). */
const PREVIEW_TOKEN = /^(\/(?:api\/)?preview\/)[^/?#]+/i;

/**
 * A URL fit for a log: a preview link's token and the values of credential-like query parameters (a guest's
 * `token`, an order's access `code`, `access_token`, `api_key`, `password`, `signature`…) replaced by
 * `[REDACTED]`, values longer than any query (`LONGEST_LOGGED_VALUE`) by their length, a path longer than any of
 * the site's by its start (`pathToLog`), everything else as sent.
 * The one redaction of URLs: the request log and the fast lane's log line both use it.
 */
export function redactUrl(rawUrl: string): string {
  // RULES 18.3: a preview link's token is the link: its address is logged without it, in any case (Express routes
  // `/API/Preview/…` as `/api/preview/…`).
  const url = rawUrl.replace(PREVIEW_TOKEN, `$1${REDACTED}`);
  const q = url.indexOf('?');
  const path = pathToLog(q < 0 ? url : url.slice(0, q));
  if (q < 0) return path;
  let changed = path.length !== q;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((param) => {
      const eq = param.indexOf('=');
      const long = tooLongToLog(param, eq);
      if (long) {
        changed = true;
        return long;
      }
      if (eq < 0 || !isSecretParam(param.slice(0, eq))) return param;
      changed = true;
      return `${param.slice(0, eq + 1)}${REDACTED}`;
    });
  return changed ? `${path}?${params.join('&')}` : url;
}

/** The request's id (the proxy's when it is plain, else a new one), also sent back as `X-Request-Id`. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdOf(req);
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** The request's id without touching the response (for a sender that writes all its headers in one go). */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
}

/** Requests refused for what their address carries, logged at info (`refusedQuietly`). */
const quietRefusals = new WeakSet<IncomingMessage>();

/**
 * Marks a request refused for what its address carries (a search too long to read, a target that is not a path):
 * its 4xx is an info line, not a warning. A client sending such requests gets its answer; the log is not where it
 * gets to raise an alarm (and the address's long values are left out of every line, `redactUrl`).
 */
export function refusedQuietly(req: IncomingMessage): void {
  quietRefusals.add(req);
}

export function requestLogging(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: requestId,
    customLogLevel(req, res, err) {
      if (err || res.statusCode >= 500) return 'error';
      if (res.statusCode >= 400 && !quietRefusals.has(req)) return 'warn';
      return 'info';
    },
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
    // The same redaction on the request logger's child (pino-http passes these options to it), whatever the
    // logger it was given was made with.
    redact: { paths: [...REDACT_PATHS], censor: REDACTED },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
