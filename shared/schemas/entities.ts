import { pageFromText, z } from './zod.js';
import { EventCardSchema, PerformerCardSchema, VenueCardSchema } from './cards.js';
import { VenueDocumentSchema } from './documents.js';
import { MAX_QUERY_LENGTH } from '../rules/constants.js';

/** Performer, venue and event pages, search results and the header menu, as the API answers them. */

export const SlugParamsSchema = z.object({
  slug: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'slug must be lower-case words and an id joined by hyphens')
    .max(200),
});

export const UPCOMING_EVENTS_SHOWN = 50;
export const RELATED_EVENTS_SHOWN = 6;
export const RESULTS_PER_PAGE = 10;
export const MAX_RESULTS_PAGE = 100;

/** `?page=` of a performer's or venue's schedule, UPCOMING_EVENTS_SHOWN dates a page. */
export const MAX_SCHEDULE_PAGE = 200;
export const SchedulePageQuerySchema = z.object({
  page: pageFromText(MAX_SCHEDULE_PAGE),
});

/** One page of a schedule: its events, soonest first, with how many there are in all. */
const schedule = {
  events: z.array(EventCardSchema),
  eventsFound: z.number().int(),
  page: z.number().int().min(1),
  perPage: z.number().int().min(1),
};

export const PerformerPageSchema = z.object({ performer: PerformerCardSchema, ...schedule });

/**
 * What a venue's page reads of its catalog document: its postal address and its place on a map. Its inventory
 * value and counts stay on the server (as an event's counters do, `EventDetailSchema`).
 */
export const VenueDetailSchema = VenueDocumentSchema.pick({
  venue_city: true,
  venue_state_province_short: true,
  venue_zip: true,
  venue_country_short: true,
  venue_location: true,
});
export type VenueDetail = z.infer<typeof VenueDetailSchema>;

export const VenuePageSchema = z.object({
  venue: VenueCardSchema.extend({ pathPicture: z.string(), detail: VenueDetailSchema }),
  ...schedule,
});

/** A performer's make-up as the catalog can tell it (`shared/rules/performer-kind.ts`): a league's team, or an act. */
export const PERFORMER_KINDS = ['team', 'group'] as const;
export const PerformerKindSchema = z.enum(PERFORMER_KINDS);
export type PerformerKind = z.infer<typeof PerformerKindSchema>;

export const EventPerformerSchema = PerformerCardSchema.extend({ kind: PerformerKindSchema });
export type EventPerformer = z.infer<typeof EventPerformerSchema>;

export const EventPageSchema = z.object({
  event: EventCardSchema,
  venue: VenueCardSchema.nullable(),
  /** The event's performers in billing order, each with its kind (for the page's structured data). */
  performers: z.array(EventPerformerSchema),
  /** More dates of the headliner, then more events at the venue. */
  morePerformerEvents: z.array(EventCardSchema),
  moreVenueEvents: z.array(EventCardSchema),
});

export const SearchResultsQuerySchema = z.object({
  q: z.string().max(MAX_QUERY_LENGTH, `q must be at most ${MAX_QUERY_LENGTH} characters`).default(''),
  page: pageFromText(MAX_RESULTS_PAGE),
});

const group = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), found: z.number().int() });
export const SearchResultsSchema = z.object({
  query: z.string(),
  page: z.number().int(),
  perPage: z.number().int(),
  /** RULES 7.13: at most 3 performers, each with ≥ 10% of the hits' twelve-month orders. */
  topPerformers: z.array(PerformerCardSchema),
  performers: group(PerformerCardSchema),
  venues: group(VenueCardSchema),
  events: group(EventCardSchema),
});
export type SearchResults = z.infer<typeof SearchResultsSchema>;

export const MenuLinkSchema = z.object({ name: z.string(), url: z.string() });
export const MenuSchema = z.object({
  categories: z.array(
    z.object({
      name: z.string(),
      /** The group's own page; Other has none. */
      url: z.string().optional(),
      /** Sports: a section per league, each "All" plus every team. */
      sections: z.array(z.object({ name: z.string(), url: z.string(), links: z.array(MenuLinkSchema) })).optional(),
      /** Concerts, Theater and Other: flat lists of category links. */
      links: z.array(MenuLinkSchema).optional(),
    }),
  ),
});
export type Menu = z.infer<typeof MenuSchema>;
