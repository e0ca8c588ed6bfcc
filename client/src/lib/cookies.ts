/**
 * Cookies the page's script writes: those the server renders a landing page by (the shopper's place, the home
 * layout assignment), and the guest token's copy for the events beacon. Readable by the script, which writes them.
 */

export { readCookie } from '../../../shared/schemas/page-render.js';

/**
 * Sets (or, with `null`, removes) a cookie for the whole site: `Lax` is sent on top-level navigations from
 * other sites too, `Strict` only with requests this site starts.
 */
export function writeCookie(
  name: string,
  value: string | null,
  maxAgeSeconds: number,
  sameSite: 'Lax' | 'Strict' = 'Lax',
): void {
  try {
    const secure = location.protocol === 'https:' ? '; Secure' : '';
    document.cookie =
      value === null
        ? `${name}=; Path=/; Max-Age=0; SameSite=${sameSite}${secure}`
        : `${name}=${encodeURIComponent(value)}; Path=/; ` +
          `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; SameSite=${sameSite}${secure}`;
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
