import { z } from './zod.js';

/**
 * The search documents of every collection (RULES 15.1–15.5, 7.17). Field names follow the hosted search service's
 * documents so the embedded engine and Typesense hold the same records. Every document has a string `id`,
 * as Typesense requires.
 */

/** [latitude, longitude], Typesense's geopoint. */
export const GeoPointSchema = z.tuple([z.number().min(-90).max(90), z.number().min(-180).max(180)]);
export type GeoPoint = z.infer<typeof GeoPointSchema>;

const id = z.string().min(1).max(64);
const count = z.number().int().min(0);
const money = z.number().min(0);
/** Local wall-clock time at the venue, without offset: `YYYY-MM-DDTHH:mm:ss`. */
export const LocalTimestampSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
/** A US state or Canadian province code, or empty outside North America. */
const regionCode = z.string().max(4);
const countryCode = z.string().regex(/^[A-Z]{2}$/);

export const TopCategorySchema = z.enum(['SPORTS', 'CONCERTS', 'THEATRE', 'OTHER']);
export type TopCategory = z.infer<typeof TopCategorySchema>;

export const EVENT_STATUSES = ['scheduled', 'postponed', 'rescheduled', 'cancelled'] as const;

export const PerformerVenueSchema = z.object({
  venue_id: z.number().int(),
  venue_name: z.string(),
  venue_city: z.string(),
  min_ticket_price: money,
});

export const PerformerDocumentSchema = z.object({
  id,
  performer_id: z.number().int().positive(),
  performer_name: z.string().min(1),
  image: z.string().min(1),
  events_available: count,
  tickets_available: count,
  ticket_groups_available: count,
  total_inventory_value: money,
  /** Venues of the upcoming events, soonest first; the first venue's price is the card's minPrice (RULES 5.6). */
  venues: z.array(PerformerVenueSchema),
  /** Geo points of those venues, so "near me" can be asked of performers directly. */
  venue_locations: z.array(GeoPointSchema),
  /** The category route slug the performer belongs to (`nfl`, `broadway`…). */
  category: z.string().min(1),
  parent: TopCategorySchema,
  child: z.string(),
  grandchild: z.string(),
  order_rank: z.number().int().positive(),
  /** When the performer's last listed event starts (ISO 8601, UTC); empty when none is dated. */
  expiry_datetime: z.string(),
  performer_orders_d7: count,
  performer_orders_t12: count,
  custom_label: z.string(),
});
export type PerformerDocument = z.infer<typeof PerformerDocumentSchema>;

export const VenueDocumentSchema = z.object({
  id,
  venue_id: z.number().int().positive(),
  venue_name: z.string().min(1),
  venue_kind: z.string(),
  venue_city: z.string().min(1),
  venue_state: z.string(),
  venue_state_province_short: regionCode,
  venue_country_short: countryCode,
  venue_zip: z.string(),
  venue_time_zone: z.string().min(1),
  venue_location: GeoPointSchema,
  capacity: count,
  events_available: count,
  total_inventory_value: money,
});
export type VenueDocument = z.infer<typeof VenueDocumentSchema>;

export const EventDocumentSchema = z.object({
  id,
  event_id: z.number().int().positive(),
  event_name: z.string().min(1),
  event_status: z.enum(EVENT_STATUSES),
  venue_id: z.number().int().positive(),
  venue_name: z.string().min(1),
  venue_city: z.string().min(1),
  venue_state: z.string(),
  venue_state_province_short: regionCode,
  venue_country_short: countryCode,
  venue_zip: z.string(),
  venue_location: GeoPointSchema,
  /** Venue-local start, or null when the date is not set yet (shown as TBD, RULES 4.1). */
  event_local_timestamp: LocalTimestampSchema.nullable(),
  /** The venue's UTC offset in hours at that start (DST included). */
  venue_time_zone_offset: z.number().min(-12).max(14),
  /** Start as Unix seconds, or null with the local timestamp; what date filters and sorts use. */
  event_timestamp: z.number().int().nullable(),
  event_orders_d1: count,
  event_cart_d1: count,
  /** People viewing the event now. */
  event_mpv_d1: count,
  event_orders_d7: count,
  event_orders_t12: count,
  tickets_available: count,
  ticket_groups_available: count,
  min_ticket_price: money,
  major_category: TopCategorySchema,
  parent_category: z.string(),
  child_category: z.string(),
  category: z.string().min(1),
  performer_ids: z.array(z.number().int().positive()).min(1),
  performer_names: z.array(z.string()).min(1),
});
export type EventDocument = z.infer<typeof EventDocumentSchema>;

export const EXPLORE_ENTITY_TYPES = ['performer', 'venue', 'category'] as const;
export const ExploreDocumentSchema = z.object({
  id,
  /** Position in the explore index. */
  _oid: z.number().int().min(0),
  entity_id: z.number().int(),
  entity_type: z.enum(EXPLORE_ENTITY_TYPES),
  text: z.string().min(1),
  path_picture: z.string(),
  url: z.string().startsWith('/'),
  rank: count,
});
export type ExploreDocument = z.infer<typeof ExploreDocumentSchema>;

export const BannerDocumentSchema = z.object({
  id,
  banner_id: z.number().int().positive(),
  /** `*` for every brand, otherwise a brand id. */
  brand: z.string().min(1),
  placement: z.enum(['promo', 'hero']),
  title: z.string().min(1),
  subtitle: z.string(),
  image: z.string(),
  url: z.string().startsWith('/'),
  priority: count,
  starts_at: z.number().int(),
  ends_at: z.number().int(),
});
export type BannerDocument = z.infer<typeof BannerDocumentSchema>;

export const ZipEventDocumentSchema = z.object({
  id,
  /** Category route slug. */
  cat: z.string().min(1),
  /** The venue's 3-digit ZIP prefix. */
  zip: z.string().regex(/^\d{3}$/),
  event_id: z.number().int().positive(),
  event_local_timestamp: LocalTimestampSchema.nullable(),
  event_timestamp: z.number().int().nullable(),
});
export type ZipEventDocument = z.infer<typeof ZipEventDocumentSchema>;

export const ZIP_KEY_TYPES = ['zip3', 'zip2', 'state'] as const;
export const ZipEventDeterminationDocumentSchema = z.object({
  id,
  /** A 3-digit or 2-digit ZIP prefix, or a state code. */
  key: z.string().min(2).max(3),
  key_type: z.enum(ZIP_KEY_TYPES),
  /** The market the key belongs to: the city whose venues sell the most there. */
  determination: z.string().min(1),
  city: z.string(),
  state: z.string(),
  location: GeoPointSchema,
  /** Gross ticket value of the upcoming events in that key (RULES 6.2: determination needs > 25,000). */
  gross_ticket_value: money,
});
export type ZipEventDeterminationDocument = z.infer<typeof ZipEventDeterminationDocumentSchema>;

export const USCityDocumentSchema = z.object({
  id,
  city: z.string().min(1),
  state_name: z.string().min(1),
  state_id: z.string().length(2),
  population: z.number().int().positive(),
  location: GeoPointSchema,
  zip: z.string().regex(/^\d{5}$/),
  /** IANA zone, so date windows follow the shopper's calendar. */
  time_zone: z.string().min(1),
});
export type USCityDocument = z.infer<typeof USCityDocumentSchema>;

export const TSImageDocumentSchema = z.object({
  id,
  image_url: z.string().min(1),
});
export type TSImageDocument = z.infer<typeof TSImageDocumentSchema>;

export const COLLECTION_SCHEMAS = {
  Performer: PerformerDocumentSchema,
  Venue: VenueDocumentSchema,
  Event: EventDocumentSchema,
  Explore: ExploreDocumentSchema,
  Banner: BannerDocumentSchema,
  ZipEvent: ZipEventDocumentSchema,
  ZipEventDetermination: ZipEventDeterminationDocumentSchema,
  USCity: USCityDocumentSchema,
  TSImage: TSImageDocumentSchema,
} as const;

export type CollectionName = keyof typeof COLLECTION_SCHEMAS;
export const COLLECTION_NAMES = Object.keys(COLLECTION_SCHEMAS) as CollectionName[];
export const CollectionNameSchema = z.enum(COLLECTION_NAMES as [CollectionName, ...CollectionName[]]);

/**
 * Collections whose documents are entities, with the field holding the entity's number: such a document's `id`
 * is that number as a string (`"100001"` for event 100001), so an id alone finds the entity.
 */
export const ENTITY_ID_FIELDS: Partial<Record<CollectionName, string>> = {
  Event: 'event_id',
  Performer: 'performer_id',
  Venue: 'venue_id',
  Banner: 'banner_id',
  ZipEvent: 'event_id',
};

/** Why a document's `id` does not match its entity's number, or undefined when it does (or has none). */
export function idProblem(
  collection: CollectionName,
  doc: { id: string } & Record<string, unknown>,
): string | undefined {
  const field = ENTITY_ID_FIELDS[collection];
  if (!field || doc.id === String(doc[field])) return undefined;
  return `Field \`id\` must be the ${field} as a string ("${String(doc[field])}"), not ${JSON.stringify(doc.id)}.`;
}

export interface CollectionDocuments {
  Performer: PerformerDocument;
  Venue: VenueDocument;
  Event: EventDocument;
  Explore: ExploreDocument;
  Banner: BannerDocument;
  ZipEvent: ZipEventDocument;
  ZipEventDetermination: ZipEventDeterminationDocument;
  USCity: USCityDocument;
  TSImage: TSImageDocument;
}
