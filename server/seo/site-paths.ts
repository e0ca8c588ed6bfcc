import { entitySlug } from '../rules/slug.js';

/*
 * The storefront's own page addresses, built as its cards build them (`server/rules/event-card.ts`,
 * `performer-card.ts`, `venue-card.ts`) and its menu and category tiles (`/category/{slug}`): a sitemap lists
 * exactly what the pages link to. The cards need whole documents; the sitemaps read only the name and id, so the
 * same slug rule (spec §2) is applied here, and `sitemaps.test.ts` holds every address to the cards' own.
 */

export const eventPath = (name: string, id: number) => `/events/${entitySlug(name, id)}`;
export const performerPath = (name: string, id: number) => `/performers/${entitySlug(name, id)}`;
export const venuePath = (name: string, id: number) => `/venues/${entitySlug(name, id)}`;
export const categoryPath = (slug: string) => `/category/${slug}`;
