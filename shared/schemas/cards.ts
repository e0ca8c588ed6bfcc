import { z } from './zod.js';
import { EventDocumentSchema, PerformerDocumentSchema } from './documents.js';

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
  detail: EventDocumentSchema.optional(),
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
  detail: PerformerDocumentSchema.optional(),
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
