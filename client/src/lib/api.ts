import type { z } from 'zod';
import { SITE_ID as STOREFRONT_SITE_ID } from '../../../shared/rules/constants.js';
import { callPath, type ApiCall } from '../../../shared/schemas/api-calls.js';
import { getStoredToken } from './session.js';

/** RULES 1.4: the fixed client identifier and the site id go with every backend request. */
export const CLIENT_ID = 'storefront-web';
/** The storefront's site id; a build for another site sets `VITE_SITE_ID`. */
export const SITE_ID = String(import.meta.env.VITE_SITE_ID ?? STOREFRONT_SITE_ID);

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function apiHeaders(withToken = true): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Client-Id': CLIENT_ID,
    'X-Site-Id': SITE_ID,
  };
  const token = withToken ? getStoredToken() : null;
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/**
 * The schema an answer is parsed with, or a function that loads it. What the first screen fetches passes a loader
 * (`() => import('./schemas.js').then((m) => m.MenuSchema)`): zod and the schemas then come with the first fetch
 * that needs them, loaded beside it, and the page's own script carries neither (the home route's
 * JavaScript budget). A page the server rendered fetches nothing until the shopper acts, so it may never load them.
 */
export type AnswerSchema<S extends z.ZodType> = S | (() => Promise<S>);

/**
 * The answer's schema, loading: started before its request so that the two load side by side. A failed load is the
 * answer's error, said once, where the schema is awaited (never an unhandled rejection before that).
 */
export function loadingSchema<S extends z.ZodType>(schema: AnswerSchema<S>): Promise<S> {
  const loading = typeof schema === 'function' ? schema() : Promise.resolve(schema);
  loading.catch(() => {});
  return loading;
}

/** Calls the API and parses the answer with the schema the server answers with. */
export async function api<S extends z.ZodType>(
  path: string,
  schema: AnswerSchema<S>,
  init: RequestInit & { token?: boolean } = {},
): Promise<z.output<S>> {
  const { token = true, ...rest } = init;
  const parser = loadingSchema(schema);
  const res = await fetch(path, {
    ...rest,
    headers: { ...apiHeaders(token), ...(rest.headers as Record<string, string> | undefined) },
  });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ApiError(res.status, error?.code ?? 'http_error', error?.message ?? `${res.status} ${res.statusText}`);
  }
  return (await parser).parse(body);
}

/** Fetches a page's call (`shared/schemas/api-calls.ts`) at its address, parsed with the schema it answers with. */
export function callApi<S extends z.ZodType>(
  call: ApiCall,
  schema: AnswerSchema<S>,
  init: RequestInit & { token?: boolean } = {},
): Promise<z.output<S>> {
  return api(callPath(call), schema, init);
}

/** Client errors go to the server's log, never to the shopper. */
export function reportClientError(error: unknown, context: string): void {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const body = JSON.stringify({
    context: context.slice(0, 200),
    message: message.slice(0, 2000),
    url: location.pathname.slice(0, 500),
  });
  try {
    if (!navigator.sendBeacon?.('/api/client-errors', new Blob([body], { type: 'application/json' }))) {
      void fetch('/api/client-errors', { method: 'POST', headers: apiHeaders(false), body, keepalive: true }).catch(
        () => {},
      );
    }
  } catch {
    // Reporting must never throw into the page.
  }
}
