/**
 * Requests to server nodes as simulated shoppers send them, for tests and the fault benchmark: each call
 * answers, never throws. Nothing here imports the test runner, so the benchmark uses it as well.
 */
import type { ServerNode } from './server-nodes.js';

export interface Answer {
  /** 0 when no answer came (connection refused or reset, timeout). */
  status: number;
  headers: Headers;
  /** The parsed JSON body, or null; read by the API's contract, field by field, as supertest's `body` is. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- whatever JSON the API answers
  body: any;
  /** Why no answer came, when status is 0. */
  error?: string;
}

/** `<status>` or `<status> <error code>` (`201`, `503 store_unavailable`), or why no answer came (`ECONNRESET`). */
export function outcome(answer: Answer): string {
  const code = answer.body?.error?.code;
  return `${answer.status || answer.error}${typeof code === 'string' ? ` ${code}` : ''}`;
}

/** A client address per simulated shopper: 10.a.b.c, distinct for every call in a process. */
let addresses = 0;
export function nextAddress(): string {
  const n = ++addresses;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  /** Sent as X-Forwarded-For: the address the server believes the client has (it trusts loopback proxies). */
  ip?: string;
  headers?: Record<string, string>;
}

/** Not a spec figure: longer than any answer of a healthy node takes on a loaded test machine. */
const CALL_TIMEOUT_MS = 20_000;

/** One request to a node; never throws. */
export async function call(base: string, method: string, route: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...(options.headers ?? {}) };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.ip) headers['x-forwarded-for'] = options.ip;
  try {
    const res = await fetch(base + route, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    return { status: res.status, headers: res.headers, body };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    return {
      status: 0,
      headers: new Headers(),
      body: null,
      error: cause?.code ?? (err instanceof Error ? err.name : String(err)),
    };
  }
}

/** A simulated shopper: one guest token, one client address; each call may go to any node. */
export interface Shopper {
  call(node: ServerNode, method: string, route: string, options?: Omit<CallOptions, 'token' | 'ip'>): Promise<Answer>;
}

/** Opens a guest session on `node` from a new client address (or `ip`); throws unless it is 201. */
export async function newShopper(node: ServerNode, ip = nextAddress()): Promise<Shopper> {
  const session = await call(node.url, 'POST', '/api/customers/session', { ip });
  if (session.status !== 201 || typeof session.body?.sessionToken !== 'string') {
    throw new Error(
      `POST /api/customers/session from ${ip} answered ${session.status}: ${JSON.stringify(session.body)}`,
    );
  }
  return shopperWith(session.body.sessionToken as string, ip);
}

/** A shopper for a token already issued. */
export function shopperWith(token: string, ip: string): Shopper {
  return { call: (to, method, route, options = {}) => call(to.url, method, route, { ...options, token, ip }) };
}
