import { PAGE_COOKIES } from '../../../shared/schemas/page-render.js';
import { writeCookie } from './cookies.js';

/** How long the browser keeps the home-layout assignment the server named (RULES 9.4): as long as a guest token. */
const ASSIGNMENT_COOKIE_SECONDS = 30 * 24 * 60 * 60;

/**
 * Keeps the guest's home-layout assignment (GrowthBook's force syntax, `home-layout:1`) in the cookie the next home
 * page is drawn by, or drops it (null): a rendered or shared-cache page never knows the guest, only this cookie
 * (RULES 13.7).
 */
export function keepHomeLayout(assignment: string | null): void {
  writeCookie(PAGE_COOKIES.homeLayout, assignment, ASSIGNMENT_COOKIE_SECONDS);
}
