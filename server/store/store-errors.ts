/**
 * A store that cannot answer right now (the database stopped, restarting, unreachable or out of connections),
 * as opposed to a query that is wrong. The first is answered with 503 and retried by the shopper; the second
 * is a bug and stays a 500.
 */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super('the database is unavailable', { cause });
    this.name = 'StoreUnavailableError';
  }
}

/**
 * SQLSTATE classes that mean "not now" rather than "wrong": 08 connection exception, 53 insufficient
 * resources, 57 operator intervention (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now),
 * 58 system error, and 40 transaction rollback (serialization failure, deadlock), which a retry resolves.
 */
const TRANSIENT_SQLSTATE_CLASSES = new Set(['08', '40', '53', '57', '58']);
/** Socket errors of a connection that went away or never came. */
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** What the `pg` driver says, without a code, when a connection ends or cannot be had. */
const DRIVER_MESSAGES = new RegExp(
  [
    'connection terminated',
    'terminating connection',
    'connection error',
    'not queryable',
    'timeout exceeded when trying to connect',
    'server closed the connection',
    'the database system is (?:starting up|shutting down|in recovery mode)',
    'Connection ended',
    'pool (?:has ended|is ending)',
    'after calling end on the pool',
  ].join('|'),
  'i',
);

export function isStoreUnavailable(err: unknown): boolean {
  if (err instanceof StoreUnavailableError) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (/^[0-9A-Z]{5}$/.test(code)) return TRANSIENT_SQLSTATE_CLASSES.has(code.slice(0, 2));
    if (SOCKET_ERRORS.has(code)) return true;
  }
  return DRIVER_MESSAGES.test(err.message);
}

/** Rethrows a transient failure as a StoreUnavailableError and anything else as it is. */
export function classifyStoreError(err: unknown): never {
  if (err instanceof StoreUnavailableError || !isStoreUnavailable(err)) throw err;
  throw new StoreUnavailableError(err);
}
