import { CATEGORY_BY_SLUG } from '../../shared/catalog/categories.js';
import { hasStarted } from '../../shared/rules/lists.js';
import { pagePath, RESULTS_PATH } from '../../shared/rules/site-paths.js';
import { entitySlug, idFromSlug } from '../../shared/rules/slug.js';
import { entityTag } from '../http/fast-lane.js';
import type { SearchEngine } from '../search/search-engine.js';
import type { SearchService } from '../search/search-service.js';
import { GROUP_PAGES } from '../segments/segment-set.js';

/** What the server answers a page address with, before the client draws it. */
export type PageVerdict =
  | { status: 200 }
  | { status: 404 }
  /** `tags`: the entity's, which its next change forgets (RULES 13.4). */
  | { status: 301; location: string; tags: readonly string[] }
  | { status: 410; noindex: true; reason: 'cancelled' | 'started' };

/** RULES 2.1: the routes the storefront links to that hold no entity. */
const PLAIN_PAGES = new Set(['/', RESULTS_PATH, '/contact-us', '/faq', '/policies', '/guarantee']);
/** A shopper's own cart and order pages: judged by the page itself, which holds the guest's token. */
const PRIVATE_PAGE = /^\/(?:checkout|orders)\/[^/]+$/;
/** RULES 2.4: team and performer pages are also linked at the site root by their slug (name plus id). */
const ROOT_PERFORMER = /^\/([a-z0-9-]+-\d+)$/;

const ENTITIES = {
  performers: { collection: 'Performer', id: 'performer_id', name: 'performer_name' },
  venues: { collection: 'Venue', id: 'venue_id', name: 'venue_name' },
  events: { collection: 'Event', id: 'event_id', name: 'event_name' },
  tickets: { collection: 'Event', id: 'event_id', name: 'event_name' },
} as const;
type EntityRoute = keyof typeof ENTITIES;

const ok: PageVerdict = { status: 200 };
const missing: PageVerdict = { status: 404 };

/** The entity the slug's id names: its current slug and, for an event, whether it can still be attended. */
async function lookUp(
  engine: SearchEngine,
  route: EntityRoute,
  slug: string,
): Promise<{ slug: string; doc: Record<string, unknown>; tag: string } | null> {
  const id = idFromSlug(slug);
  if (id === null) return null;
  const { collection, id: field, name } = ENTITIES[route];
  const includeFields = collection === 'Event' ? [name, 'event_status', 'event_timestamp'] : [name];
  const found = await engine.search({
    collection,
    filters: [{ op: 'eq', field, value: id }],
    perPage: 1,
    includeFields,
  });
  const doc = found.hits[0]?.document as Record<string, unknown> | undefined;
  const value = doc?.[name];
  return typeof value === 'string' ? { slug: entitySlug(value, id), doc: doc!, tag: entityTag(collection, id) } : null;
}

/**
 * An event page whose event is cancelled, or has started (its tickets are no longer sold, and the catalog keeps
 * no end time): 410 Gone, kept out of search indexes. The page itself says which.
 */
function gone(doc: Record<string, unknown>, now: Date): PageVerdict | null {
  if (doc.event_status === 'cancelled') return { status: 410, noindex: true, reason: 'cancelled' };
  const start = doc.event_timestamp;
  if (typeof start === 'number' && hasStarted(start * 1000, now))
    return { status: 410, noindex: true, reason: 'started' };
  return null;
}

/**
 * The status of a page address: 404 for an address the storefront has no page for, or an entity that does
 * not exist; a 301 to the current address when an entity's name changed (the id in the slug decides); 410 for
 * an event that is cancelled or has started; else 200. Crawlers get real answers instead of the app's page for
 * everything.
 */
export async function pageStatus(address: string, engine: SearchEngine, now = new Date()): Promise<PageVerdict> {
  const pathname = pagePath(address);
  if (PLAIN_PAGES.has(pathname) || PRIVATE_PAGE.test(pathname)) return ok;
  const category = /^\/category\/([^/]+)$/.exec(pathname);
  if (category)
    return CATEGORY_BY_SLUG.has(category[1]!) || (GROUP_PAGES as readonly string[]).includes(category[1]!)
      ? ok
      : missing;

  // Event and ticket pages take the last segment of whatever follows (RULES 2.1: paths containing /events/).
  const entity =
    /^\/(performers|venues)\/([^/]+)$/.exec(pathname) ?? /^\/(events|tickets)\/(?:[^/]+\/)*([^/]+)$/.exec(pathname);
  const root = ROOT_PERFORMER.exec(pathname);
  if (!entity && !root) return missing;
  const [route, slug] = entity
    ? ([entity[1] as EntityRoute, entity[2]!] as const)
    : (['performers', root![1]!] as const);
  const found = await lookUp(engine, route, slug);
  if (found === null) return missing;
  if (found.slug !== slug)
    return { status: 301, location: entity ? `/${route}/${found.slug}` : `/${found.slug}`, tags: [found.tag] };
  return (ENTITIES[route].collection === 'Event' && gone(found.doc, now)) || ok;
}

/**
 * The status the app shell is sent with. Before the catalog is in memory, or when the engine fails, an address
 * cannot be judged: the page answers 200 and shows what it finds, rather than telling a crawler a live page is gone.
 */
export async function shellStatus(
  pathname: string,
  search: SearchService,
  logger: { warn(obj: object, msg: string): void },
): Promise<PageVerdict> {
  if (!search.ready) return ok;
  try {
    return await pageStatus(pathname, search.engine);
  } catch (err) {
    logger.warn({ err, pathname }, 'page status unknown: the engine failed');
    return ok;
  }
}
