import { SESSION_COOKIE } from '../../../shared/schemas/browser-events.js';
import { writeCookie } from './cookies.js';

/** RULES 1.6, guest session: one token per browser, requested on first load and kept in localStorage. */
export const TOKEN_KEY = 'guestToken';
/**
 * The token is mirrored in a cookie of this name for the events beacon, which cannot send a header (RULES 16.2);
 * `SameSite=Strict`, so no other site's request carries it. Pages never read it (RULES 13.7), and the API takes
 * the token only as a bearer token.
 */
export const TOKEN_COOKIE = SESSION_COOKIE;

/**
 * Writes the token's cookie, living as long as the token, once per page load: a copy written before may carry
 * other attributes, which a script cannot read.
 */
let mirrored: string | null = null;
function mirrorTokenCookie(token: string): void {
  if (mirrored === token) return;
  const exp = tokenClaims(token)?.exp;
  if (exp) writeCookie(TOKEN_COOKIE, token, exp - Date.now() / 1000, 'Strict');
  mirrored = token;
}

/**
 * The session API's answer, `{ sessionToken, expiresAt }`, checked by hand: the first screen asks for a session and
 * carries no zod.
 */
function tokenOf(body: unknown): string {
  const answer = body as { sessionToken?: unknown; expiresAt?: unknown } | null;
  if (typeof answer?.sessionToken !== 'string' || typeof answer.expiresAt !== 'string')
    throw new Error('session answered without a sessionToken and expiresAt');
  return answer.sessionToken;
}

type Listener = (token: string) => void;
const listeners = new Set<Listener>();
let pending: Promise<string | null> | null = null;

export function getStoredToken(): string | null {
  // A server render has no storage: no guest is known there (and a thrown error costs every render).
  if (typeof localStorage === 'undefined') return null;
  try {
    const token = localStorage.getItem(TOKEN_KEY);
    if (!token) return null;
    const exp = tokenClaims(token)?.exp;
    return exp && exp * 1000 > Date.now() ? token : null;
  } catch {
    return null;
  }
}

/** The claims of a token, read without verifying (the server verifies); used for the guest id and expiry. */
export function tokenClaims(token: string): { sub?: string; exp?: number } | null {
  try {
    const payload = token.split('.')[1] ?? '';
    return JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: string; exp?: number };
  } catch {
    return null;
  }
}

/** Resolves with the guest token, requesting one only when none is stored (RULES 1.6); null when that failed. */
export function ensureGuestSession(): Promise<string | null> {
  const stored = getStoredToken();
  if (stored) {
    mirrorTokenCookie(stored);
    return Promise.resolve(stored);
  }
  pending ??= fetch('/api/customers/session', { method: 'POST', headers: { 'X-Client-Id': 'storefront-web' } })
    .then(async (res) => {
      if (!res.ok) throw new Error(`session answered ${res.status}`);
      const sessionToken = tokenOf(await res.json());
      localStorage.setItem(TOKEN_KEY, sessionToken);
      mirrorTokenCookie(sessionToken);
      for (const listener of listeners) listener(sessionToken);
      return sessionToken;
    })
    .catch((err: unknown) => {
      // RULES 14.5: logged, never shown.
      console.error('Error during guest login', err);
      return null;
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}

/** Calls `listener` once a token exists: at once when there is one, else when the session arrives. */
export function onGuestToken(listener: Listener): () => void {
  const token = getStoredToken();
  if (token) {
    listener(token);
    return () => {};
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * RULES 21.3: forgets the guest (after their data was erased): the token and its cookie go, and the next request
 * that needs a guest starts a new one, so nothing more is recorded under the erased guest's id.
 */
export function forgetGuestSession(): void {
  try {
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Storage refused: nothing was kept there either.
  }
  writeCookie(TOKEN_COOKIE, null, 0);
}
