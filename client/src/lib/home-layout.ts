import type { LayoutExposuresAnswer, LayoutExposuresBody } from '../../../shared/schemas/layout.js';
import { PAGE_COOKIES } from '../../../shared/schemas/page-render.js';
import { apiHeaders } from './api.js';
import { documentCookies, readCookie, writeCookie } from './cookies.js';

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

/** The assignment the home page the browser holds was drawn by: the cookie as it is now. */
export function homeLayoutAssignment(): string | null {
  return readCookie(documentCookies(), PAGE_COOKIES.homeLayout) ?? null;
}

/** The exposures answer, checked by hand: it comes after every served home page, which carries no zod. */
function exposuresAnswer(body: unknown): LayoutExposuresAnswer {
  const answer = body as Partial<LayoutExposuresAnswer> | null;
  const experiments = Array.isArray(answer?.experiments) ? answer.experiments : null;
  if (
    typeof answer?.variation !== 'string' ||
    !experiments?.every((e) => typeof e?.key === 'string' && typeof e.variationId === 'string') ||
    !(answer.assignment === undefined || answer.assignment === null || typeof answer.assignment === 'string')
  )
    throw new Error('the exposures answer is not { variation, experiments, assignment }');
  return answer as LayoutExposuresAnswer;
}

/**
 * RULES 9.4, 16.1: tells the server what a home page it sent showed and which assignment it was drawn by; keeps
 * the assignment the answer names for the next page, and resolves with the exposures it recorded.
 */
export async function reportHomeView(
  body: LayoutExposuresBody,
  headers: Record<string, string>,
): Promise<LayoutExposuresAnswer['experiments']> {
  const res = await fetch('/api/layout/exposures', {
    method: 'POST',
    headers: { ...apiHeaders(), ...headers },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`exposures answered ${res.status}`);
  const answer = exposuresAnswer(await res.json());
  if (answer.assignment !== undefined) keepHomeLayout(answer.assignment);
  return answer.experiments;
}
