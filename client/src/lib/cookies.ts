/**
 * Cookies the server reads to render a landing page as this browser will show it: the shopper's place and the
 * guest token (whose id picks the experiment variation). Readable by the page's script, which writes them.
 */

export { readCookie } from '../../../shared/schemas/page-render.js';

/** Sets (or, with `null`, removes) a cookie for the whole site, sent on top-level navigations (SameSite=Lax). */
export function writeCookie(name: string, value: string | null, maxAgeSeconds: number): void {
  try {
    const secure = location.protocol === 'https:' ? '; Secure' : '';
    document.cookie =
      value === null
        ? `${name}=; Path=/; Max-Age=0; SameSite=Lax${secure}`
        : `${name}=${encodeURIComponent(value)}; Path=/; ` +
          `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; SameSite=Lax${secure}`;
  } catch {
    // No document (the server) or cookies refused: the page still works, rendered by the client.
  }
}

export function documentCookies(): string {
  try {
    return document.cookie;
  } catch {
    return '';
  }
}
