import { parseArgs } from 'node:util';
import { openStore } from '../store/open-store.js';
import type { Sql } from '../store/sql.js';

/**
 * Runs `fn` over the store a command line works on: `DATABASE_URL`'s PostgreSQL when it is set, else the embedded one
 * in `<DATA_DIR>/db`, which only a stopped storefront leaves free (the error says to ask a running one with --url).
 */
export async function withCliStore<T>(env: NodeJS.ProcessEnv, fn: (sql: Sql) => Promise<T>): Promise<T> {
  const dataDir = env.DATA_DIR?.trim() || 'data';
  const sql = await openStore({ databaseUrl: env.DATABASE_URL?.trim() || undefined, dataDir }).catch((err: unknown) => {
    throw new Error(
      `Cannot open the store (${err instanceof Error ? err.message : String(err)}). ` +
        'A running storefront holds the embedded store: ask it with --url http://127.0.0.1:<port> instead.',
      { cause: err },
    );
  });
  try {
    return await fn(sql);
  } finally {
    await sql.close();
  }
}

/**
 * Calls a running storefront's API for a command line: the JSON answer, or an error naming the storefront, the status
 * and the message it gave (ours, `{ error: { message } }`, or Typesense-shaped, `{ message }`).
 */
export async function callStorefront<T>(
  base: string,
  pathname: string,
  options: { headers?: Record<string, string>; method?: string; body?: unknown; fetch?: typeof fetch } = {},
): Promise<T> {
  const url = new URL(pathname, base);
  const res = await (options.fetch ?? fetch)(url, {
    method: options.method ?? 'GET',
    headers: { ...options.headers, ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body = (await res.json().catch(() => null)) as { error?: { message?: string }; message?: string } | null;
  if (!res.ok) {
    const message = body?.error?.message ?? body?.message ?? res.statusText;
    throw new Error(`${url.origin} answered ${res.status}: ${message}`);
  }
  return body as T;
}

/** What a command line writes to. */
export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

type CliOptions = Record<string, { type: 'string' | 'boolean' }>;

/**
 * Reads a command line's arguments with `node:util`'s `parseArgs` (positionals allowed, plus `--help`); an unknown or
 * malformed option is written with the usage, and answers null (the caller exits 2).
 */
export function parseCliArgs<O extends CliOptions>(argv: string[], options: O, usage: string, io: CliIo) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: { ...options, help: { type: 'boolean' } } });
  } catch (err) {
    io.err(`${(err as Error).message}\n\n${usage}`);
    return null;
  }
}
