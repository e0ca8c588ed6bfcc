import type { z } from 'zod';
import type { ListingsResponseSchema } from '../../../shared/schemas/commerce.js';
import type {
  EventPageSchema,
  PerformerPageSchema,
  SearchResultsSchema,
  VenuePageSchema,
} from '../../../shared/schemas/entities.js';
import type { BrandAnswer, LayoutResponse } from '../../../shared/schemas/layout.js';
import { formatPrice } from '../../../shared/rules/format.js';
import { pagePath } from '../../../shared/rules/site-paths.js';
import { eventWhen } from '../features/buying/cart-summary.js';
import { eventPlace, ticketPrices } from '../features/buying/event-jsonld.js';
import { formatMoney } from '../features/buying/money.js';
import type { PageHead, PagePlan } from '../../../shared/schemas/page-render.js';

export type { PageHead };

const DEFAULT_DESCRIPTION = 'Resale tickets for concerts, sports and theater near you, with every fee shown up front.';
const INFO_TITLES: Record<string, { title: string; description: string }> = {
  '/contact-us': {
    title: 'Contact us',
    description: 'How to reach our customer support about an order, a ticket or an event.',
  },
  '/faq': {
    title: 'Frequently asked questions',
    description: 'Answers about buying resale tickets, delivery, prices and fees, and refunds.',
  },
  '/policies': { title: 'Policies', description: 'Our terms, privacy policy, and the guarantee on every ticket.' },
  '/guarantee': {
    title: '100% Money Back Guarantee',
    description: 'What our guarantee covers on every order, what it does not, and how to claim.',
  },
};

type Read = (queryKey: readonly unknown[]) => unknown;

/** The answer the page's own query at `index` got (0, its main one), or undefined. */
function answer<T>(plan: PagePlan, read: Read, index = 0): T | undefined {
  const query = plan.own[index];
  return query ? (read(query.queryKey) as T | undefined) : undefined;
}

function sentence(text: string, max = 160): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

/**
 * The head of a server-rendered page, from the answers its components draw with, so what a search result or a
 * shared link says is what the page shows (the titles are those the pages set as the shopper moves around).
 */
export function pageHead(
  plan: PagePlan,
  read: Read,
  { origin, url, status }: { origin: string; url: URL; status: number },
): PageHead {
  const brand = read(['brand']) as BrandAnswer | undefined;
  // Appended to the origin, never resolved against it: a path like `//elsewhere/x` stays on this site.
  const absolute = (path: string) => `${origin}/${path.replace(/^\/+/, '')}`;
  const head: PageHead = {
    title: 'Tickets for concerts, sports and theater',
    description: DEFAULT_DESCRIPTION,
    canonical: absolute(pagePath(url.pathname)),
    image: null,
    type: 'website',
    siteName: brand?.name ?? 'Tickets',
    noindex: status >= 400,
  };
  if (status === 404)
    return {
      ...head,
      title: 'Page not found',
      description: 'We could not find that page. Search for an artist, team or venue.',
    };
  // The page of a schedule the answer was drawn for (`?page=2.0` draws page 2), named when it is not the first.
  const paged = (path: string, page: number) => absolute(page > 1 ? `${path}?page=${page}` : path);

  switch (plan.kind) {
    case 'home':
    case 'category': {
      const layout = answer<LayoutResponse>(plan, read);
      if (!layout) return head;
      const city = layout.location.city;
      const near = city ? ` near ${city}${layout.location.state ? `, ${layout.location.state}` : ''}` : '';
      return plan.kind === 'home'
        ? {
            ...head,
            title: `Tickets near ${city || 'you'}`,
            description: `Resale tickets for concerts, sports and theater${near}, with every fee shown up front.`,
            canonical: absolute('/'),
          }
        : {
            ...head,
            title: `${layout.title} tickets`,
            description: sentence(
              `${layout.title} tickets${near}: upcoming events and prices with every fee included.`,
            ),
          };
    }
    case 'performer': {
      const data = answer<z.infer<typeof PerformerPageSchema>>(plan, read);
      if (!data) return head;
      const { performer } = data;
      const from =
        performer.minPrice > 0 ? `, tickets from $${formatPrice(performer.minPrice)} with fees included` : '';
      return {
        ...head,
        title: `${performer.name} tickets`,
        description: sentence(
          `${performer.name} tickets: ${performer.eventCount}${from}. See every date and pick your seats.`,
        ),
        canonical: paged(performer.url, data.page),
        image: performer.pathPicture ? absolute(performer.pathPicture) : null,
        type: 'article',
      };
    }
    case 'venue': {
      const data = answer<z.infer<typeof VenuePageSchema>>(plan, read);
      if (!data) return head;
      const { venue } = data;
      return {
        ...head,
        title: `${venue.name} tickets`,
        description: sentence(
          `Tickets for upcoming events at ` +
            `${venue.name}${venue.address ? `, ${venue.address}` : ''}: ${data.eventsFound} ` +
            `${data.eventsFound === 1 ? 'event' : 'events'}, prices with fees ` +
            `included.`,
        ),
        canonical: paged(venue.url, data.page),
        image: venue.pathPicture ? absolute(venue.pathPicture) : null,
      };
    }
    case 'event': {
      const data = answer<z.infer<typeof EventPageSchema>>(plan, read);
      if (!data) return head;
      const listings = answer<z.infer<typeof ListingsResponseSchema>>(plan, read, 1);
      const { event, venue, performers } = data;
      const lowest = listings ? ticketPrices(listings.listings)?.lowPrice : undefined;
      const where = [venue?.name ?? event.detail?.venue_name, eventPlace(event)].filter(Boolean).join(', ');
      const price = lowest !== undefined ? ` Tickets from ${formatMoney(lowest)}, fees included.` : '';
      const picture = performers.find((p) => p.pathPicture)?.pathPicture;
      return {
        ...head,
        title: `${event.name} tickets`,
        description: sentence(`${event.name} at ${where}, ${eventWhen(event)}.${price}`),
        canonical: absolute(event.url),
        image: picture ? absolute(picture) : null,
        type: 'article',
        // An event that is cancelled or has started (410) stays out of indexes; the page still says so to a person.
        noindex: head.noindex,
      };
    }
    case 'results': {
      const data = answer<z.infer<typeof SearchResultsSchema>>(plan, read);
      const kwds = url.searchParams.get('kwds') ?? '';
      // Results pages are for people: followed, not indexed (search engines ask that of internal search pages).
      return {
        ...head,
        title: kwds ? `Results for “${kwds}”` : 'Search',
        description: data ? sentence(`Tickets matching “${kwds}”.`) : head.description,
        noindex: true,
      };
    }
    case 'info': {
      const info = INFO_TITLES[pagePath(url.pathname)];
      return info ? { ...head, ...info } : head;
    }
    case 'not-found':
      return { ...head, title: 'Page not found', noindex: true };
  }
}
