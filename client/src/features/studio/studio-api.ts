import type { z } from 'zod';
import { STUDIO_KEY_HEADER } from '../../../../shared/schemas/studio.js';
import { ApiError } from '../../lib/api.js';

const KEY_STORAGE = 'studio-key';

/** The studio's key lasts as long as the tab: it is never written where another site or a later visit reads it. */
export function studioKey(): string | null {
  try {
    return sessionStorage.getItem(KEY_STORAGE);
  } catch {
    return null;
  }
}

export function setStudioKey(key: string | null): void {
  try {
    if (key) sessionStorage.setItem(KEY_STORAGE, key);
    else sessionStorage.removeItem(KEY_STORAGE);
  } catch {
    // Private modes without storage: the key is asked for again on the next load.
  }
}

/** An answer the studio refuses for want of the right key. */
export const needsKey = (error: unknown) => error instanceof ApiError && error.status === 401;

/** Calls `/api/studio/<path>` with the key and parses the answer; failures carry the server's message. */
export async function studioApi<S extends z.ZodType>(
  path: string,
  schema: S,
  init: { method?: string; body?: unknown; signal?: AbortSignal } = {},
): Promise<z.output<S>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const key = studioKey();
  if (key) headers[STUDIO_KEY_HEADER] = key;
  const method = init.method ?? 'GET';
  // Every change goes as JSON, even with nothing to say: the server takes changes as JSON only.
  const body = init.body ?? (method === 'GET' || method === 'DELETE' ? undefined : {});
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`/api/studio/${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  const answer: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const error = (answer as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
    throw new StudioError(
      res.status,
      error?.code ?? 'http_error',
      error?.message ?? `${res.status} ${res.statusText}`,
      error?.details,
    );
  }
  return schema.parse(answer);
}

/** A refused studio call, with the problems the server listed (a broken draft set, say). */
export class StudioError extends ApiError {
  constructor(
    status: number,
    code: string,
    message: string,
    readonly details: unknown,
  ) {
    super(status, code, message);
  }
}

/** `/api/studio/files/base/explore.json`: each path segment encoded on its own. */
export const filePath = (file: string) => `files/${file.split('/').map(encodeURIComponent).join('/')}`;
