import { z } from './zod.js';
import { EventDocumentSchema } from './documents.js';

/** The display-ready cards of RULES 5.5–5.7, as the server sends them and the client parses them. */

export const BADGE_TYPES = ['hotEvent', 'peopleViewing', 'ticketLeft'] as const;
/** RULES 5.1: hotEvent and peopleViewing exclude each other, so a card carries at most two badges. */
export const MAX_BADGES = 2;

export const BadgeSchema = z.object({
  type: z.enum(BADGE_TYPES),
  label: z.string().min(1),
});
export type Badge = z.infer<typeof BadgeSchema>;
export type BadgeType = Badge['type'];

const cardUrl = z.string().startsWith('/');

/**
 * What a shopper's pages read of an event's catalog document (RULES 5.5 ff.): where and when it is (the venue's
 * name and place, the local start and its offset), its status, its category and who is billed. This list is the
 * one place that says so: the document's sales counters (`event_orders_d1`, `event_cart_d1`, `event_mpv_d1`, …),
 * inventory and ids stay on the server, in the API and in the rendered page alike.
 */
export const EventDetailSchema = EventDocumentSchema.pick({
  event_status: true,
  venue_name: true,
  venue_city: true,
  venue_state_province_short: true,
  venue_country_short: true,
  venue_zip: true,
  event_local_timestamp: true,
  venue_time_zone_offset: true,
  category: true,
  performer_names: true,
});
export type EventDetail = z.infer<typeof EventDetailSchema>;
/** The fields of `EventDetailSchema`, for the server to copy and the tests to check against. */
export const EVENT_DETAIL_FIELDS = Object.keys(EventDetailSchema.shape) as (keyof EventDetail)[];

export const EventCardSchema = z.object({
  id: z.number().int().positive(),
  name: z.string().min(1),
  badges: z.array(BadgeSchema).max(MAX_BADGES),
  /** Venue, city, and state (US) or country code otherwise. */
  address: z.string(),
  /** Upper-case short weekday (`SAT`); empty when the date is TBD. */
  day: z.string(),
  /** `MMM D` (`Jan 5`), or `TBD`. */
  date: z.string().min(1),
  /** `hh:mm AM/PM` (`07:30 PM`), `(TBD)` for a 03:30 AM start; empty when the date is TBD. */
  time: z.string(),
  /** `2027`; empty when the date is TBD. */
  year: z.string(),
  url: cardUrl,
  /** The lowest all-in price per ticket (fees included), only when a shopper can buy at it (RULES 5.5). */
  minPrice: z.number().positive().optional(),
  /** Why the event has nothing to sell, said where the price would be; never beside a `minPrice`. */
  unavailable: z.enum(['Sold out', 'Cancelled']).optional(),
  /** The shopper's view of the event's document (`EventDetailSchema`), on the event page. */
  detail: EventDetailSchema.optional(),
});
export type EventCard = z.infer<typeof EventCardSchema>;

export const PerformerCardSchema = z.object({
  id: z.number().int().positive(),
  name: z.string().min(1),
  /** `0 Events`, `1 Event`, `1,234 Events`. */
  eventCount: z.string().min(1),
  pathPicture: z.string(),
  /** The first venue's lowest all-in price per ticket (fees included), else 0. */
  minPrice: z.number().min(0),
  url: cardUrl,
});
export type PerformerCard = z.infer<typeof PerformerCardSchema>;

export const VenueCardSchema = z.object({
  id: z.number().int().positive(),
  name: z.string().min(1),
  /** City, then state for the US or the country code otherwise. */
  address: z.string(),
  url: cardUrl,
});
export type VenueCard = z.infer<typeof VenueCardSchema>;
