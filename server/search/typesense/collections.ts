import type { CollectionCreateSchema, CollectionFieldSchema, FieldType } from 'typesense';
import {
  COLLECTION_NAMES,
  type CollectionDocuments,
  type CollectionName,
  type PerformerDocument,
} from '../../../shared/schemas/documents.js';

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

const isNested = (spec: FieldSpec | NestedSpec): spec is NestedSpec => 'fields' in spec;

function fieldSchema(name: string, spec: FieldSpec): CollectionFieldSchema {
  return {
    name,
    type: spec.type,
    ...(spec.facet ? { facet: true } : {}),
    ...(spec.sort ? { sort: true } : {}),
    ...(spec.optional ? { optional: true } : {}),
  };
}

/** The Typesense fields of a collection, nested children as `parent.child` after their parent. */
export function collectionFields(collection: CollectionName): CollectionFieldSchema[] {
  const fields: CollectionFieldSchema[] = [];
  for (const [name, spec] of Object.entries(COLLECTION_FIELDS[collection]) as [string, FieldSpec | NestedSpec][]) {
    fields.push(fieldSchema(name, spec));
    if (isNested(spec)) {
      for (const [child, childSpec] of Object.entries(spec.fields))
        fields.push(fieldSchema(`${name}.${child}`, childSpec));
    }
  }
  return fields;
}

/** The schema to create `name` (a versioned collection) with for the documents of `collection`. */
export function collectionSchema(collection: CollectionName, name: string): CollectionCreateSchema {
  const fields = collectionFields(collection);
  return {
    name,
    fields,
    ...(fields.some((f) => f.type === 'object' || f.type === 'object[]') ? { enable_nested_fields: true } : {}),
  };
}

/** The alias searches go through; the reindexer points it at the newest complete version. */
export const aliasName = (prefix: string, collection: CollectionName) => `${prefix}${collection}`;

export const versionedName = (prefix: string, collection: CollectionName, version: number) =>
  `${aliasName(prefix, collection)}_v${version}`;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The version of `name` when it is a versioned collection of `collection`, else null. */
export function versionOf(prefix: string, collection: CollectionName, name: string): number | null {
  const match = new RegExp(`^${escapeRegExp(aliasName(prefix, collection))}_v(\\d+)$`).exec(name);
  return match ? Number(match[1]) : null;
}

/** Field types by name (nested children included, `id` too), for the query compiler. */
function fieldTypes(collection: CollectionName): ReadonlyMap<string, FieldSpec> {
  const map = new Map<string, FieldSpec>([['id', { type: 'string' }]]);
  for (const field of collectionFields(collection)) {
    map.set(field.name, {
      type: field.type,
      ...(field.facet ? { facet: true } : {}),
      ...(field.sort ? { sort: true } : {}),
      ...(field.optional ? { optional: true } : {}),
    });
  }
  return map;
}

export const FIELD_TYPES = Object.fromEntries(COLLECTION_NAMES.map((c) => [c, fieldTypes(c)])) as unknown as {
  [C in CollectionName]: ReadonlyMap<string, FieldSpec>;
};
