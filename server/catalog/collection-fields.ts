/**
 * Every field of every catalog collection with its type and what it is indexed for: what an imported document is
 * checked against and what the Typesense collections are created with.
 */
import type { FieldType } from 'typesense';
import type { CollectionDocuments, CollectionName, PerformerDocument } from '../../shared/schemas/documents.js';

export interface FieldSpec {
  type: FieldType;
  /** Category-like values that rows filter and count by; indexed verbatim. */
  facet?: true;
  /** Numbers sort by default; strings only with this. */
  sort?: true;
  /** The document may lack a value: a nullable field, or the child of an object array that may be empty. */
  optional?: true;
}

export interface NestedSpec extends FieldSpec {
  type: 'object[]';
  /**
   * Children declared with explicit types, so a whole-number price in the first document cannot make the field int64.
   */
  fields: Record<string, FieldSpec>;
}

/** One spec per document field; Typesense's `id` is implicit and never declared. */
type FieldsOf<D> = { [K in Exclude<keyof D, 'id'> & string]: FieldSpec | NestedSpec };

/**
 * Any plain string may be a sort key (the embedded engine sorts by any field, and rows order by state or
 * category); only links and image paths are left out of the sort index, which costs memory per document.
 */
const text: FieldSpec = { type: 'string', sort: true };
const facet: FieldSpec = { type: 'string', facet: true, sort: true };
const link: FieldSpec = { type: 'string' };
const nullableText: FieldSpec = { type: 'string', sort: true, optional: true };
/** Counts, ranks and populations: well inside int32. */
const int32: FieldSpec = { type: 'int32', sort: true };
/** Identifiers and Unix seconds: int64 so neither overflows (2038 for seconds). */
const int64: FieldSpec = { type: 'int64', sort: true };
const float: FieldSpec = { type: 'float', sort: true };
const geopoint: FieldSpec = { type: 'geopoint' };

const performerVenue: { [K in keyof PerformerDocument['venues'][number]]: FieldSpec } = {
  venue_id: { type: 'int64[]', optional: true },
  venue_name: { type: 'string[]', optional: true },
  venue_city: { type: 'string[]', optional: true },
  min_ticket_price: { type: 'float[]', optional: true },
};

export const COLLECTION_FIELDS: { [C in CollectionName]: FieldsOf<CollectionDocuments[C]> } = {
  Performer: {
    performer_id: int64,
    performer_name: text,
    image: link,
    events_available: int32,
    tickets_available: int32,
    ticket_groups_available: int32,
    total_inventory_value: float,
    venues: { type: 'object[]', fields: performerVenue },
    venue_locations: { type: 'geopoint[]' },
    category: facet,
    parent: facet,
    child: facet,
    grandchild: facet,
    order_rank: int32,
    expiry_datetime: text,
    performer_orders_d7: int32,
    performer_orders_t12: int32,
    custom_label: facet,
  },
  Venue: {
    venue_id: int64,
    venue_name: text,
    venue_kind: facet,
    venue_city: facet,
    venue_state: facet,
    venue_state_province_short: facet,
    venue_country_short: facet,
    venue_zip: text,
    venue_time_zone: facet,
    venue_location: geopoint,
    capacity: int32,
    events_available: int32,
    total_inventory_value: float,
  },
  Event: {
    event_id: int64,
    event_name: text,
    event_status: facet,
    venue_id: int64,
    venue_name: text,
    venue_city: facet,
    venue_state: facet,
    venue_state_province_short: facet,
    venue_country_short: facet,
    venue_zip: text,
    venue_location: geopoint,
    event_local_timestamp: nullableText,
    venue_time_zone_offset: float,
    event_timestamp: { ...int64, optional: true },
    event_orders_d1: int32,
    event_cart_d1: int32,
    event_mpv_d1: int32,
    event_orders_d7: int32,
    event_orders_t12: int32,
    tickets_available: int32,
    ticket_groups_available: int32,
    min_ticket_price: float,
    major_category: facet,
    parent_category: facet,
    child_category: facet,
    category: facet,
    performer_ids: { type: 'int64[]' },
    performer_names: { type: 'string[]' },
  },
  Explore: {
    _oid: int32,
    entity_id: int64,
    entity_type: facet,
    text: text,
    path_picture: link,
    url: link,
    rank: int32,
  },
  Banner: {
    banner_id: int64,
    brand: facet,
    placement: facet,
    title: text,
    subtitle: text,
    image: link,
    url: link,
    priority: int32,
    starts_at: int64,
    ends_at: int64,
  },
  ZipEvent: {
    cat: facet,
    zip: facet,
    event_id: int64,
    event_local_timestamp: nullableText,
    event_timestamp: { ...int64, optional: true },
  },
  ZipEventDetermination: {
    key: facet,
    key_type: facet,
    determination: facet,
    city: text,
    state: facet,
    location: geopoint,
    gross_ticket_value: float,
  },
  USCity: {
    city: text,
    state_name: facet,
    state_id: facet,
    population: int32,
    location: geopoint,
    zip: text,
    time_zone: facet,
  },
  TSImage: {
    image_url: link,
  },
};
