import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { COLLECTION_NAMES, COLLECTION_SCHEMAS, type CollectionName } from '../../../shared/schemas/documents.js';
import { GEO_FIELDS, SEARCHABLE_FIELDS } from '../search-engine.js';
import { COLLECTION_FIELDS } from '../../catalog/collection-fields.js';
import { aliasName, collectionFields, collectionSchema, FIELD_TYPES, versionedName, versionOf } from './collections.js';

type Shape = Record<string, z.ZodType>;

/** The Typesense types a zod document field can be stored as, and whether it may be null. */
function acceptedTypes(schema: z.ZodType): { types: string[]; nullable: boolean } {
  if (schema instanceof z.ZodNullable)
    return { types: acceptedTypes(schema.unwrap() as z.ZodType).types, nullable: true };
  if (schema instanceof z.ZodString || schema instanceof z.ZodEnum) return { types: ['string'], nullable: false };
  if (schema instanceof z.ZodNumber) return { types: schema.isInt ? ['int32', 'int64'] : ['float'], nullable: false };
  if (schema instanceof z.ZodBoolean) return { types: ['bool'], nullable: false };
  if (schema instanceof z.ZodTuple) return { types: ['geopoint'], nullable: false };
  if (schema instanceof z.ZodObject) return { types: ['object'], nullable: false };
  if (schema instanceof z.ZodArray) {
    const element = acceptedTypes(schema.element as z.ZodType);
    return { types: element.types.map((t) => `${t}[]`), nullable: false };
  }
  throw new Error(`no Typesense type for zod ${schema.def.type}`);
}

const fieldsOf = (collection: CollectionName) => new Map(collectionFields(collection).map((f) => [f.name, f]));

describe('Typesense collection schemas', () => {
  it.each(COLLECTION_NAMES)('%s declares every document field and nothing else', (collection) => {
    const shape = COLLECTION_SCHEMAS[collection].shape as Shape;
    const topLevel = collectionFields(collection)
      .map((f) => f.name)
      .filter((name) => !name.includes('.'));
    // Typesense's `id` is implicit: every document has it as a string and the schema must not declare it.
    expect(shape.id).toBeInstanceOf(z.ZodString);
    expect(topLevel).not.toContain('id');
    expect([...topLevel].sort()).toEqual(
      Object.keys(shape)
        .filter((k) => k !== 'id')
        .sort(),
    );
    expect(new Set(collectionFields(collection).map((f) => f.name)).size).toBe(collectionFields(collection).length);
  });

  it.each(COLLECTION_NAMES)(
    '%s gives each field a type its zod schema allows, optional exactly when nullable',
    (collection) => {
      const shape = COLLECTION_SCHEMAS[collection].shape as Shape;
      const fields = fieldsOf(collection);
      for (const [name, schema] of Object.entries(shape)) {
        if (name === 'id') continue;
        const field = fields.get(name)!;
        const { types, nullable } = acceptedTypes(schema);
        expect.soft(types, `${collection}.${name}`).toContain(field.type);
        expect.soft(field.optional === true, `${collection}.${name} optional`).toBe(nullable);
        if (schema instanceof z.ZodArray && schema.element instanceof z.ZodObject) {
          const childShape = schema.element.shape as Shape;
          const children = [...fields.keys()]
            .filter((n) => n.startsWith(`${name}.`))
            .map((n) => n.slice(name.length + 1));
          expect(children.sort(), `${collection}.${name} children`).toEqual(Object.keys(childShape).sort());
          for (const [child, childSchema] of Object.entries(childShape)) {
            const childField = fields.get(`${name}.${child}`)!;
            const childTypes = acceptedTypes(childSchema).types.map((t) => `${t}[]`);
            expect.soft(childTypes, `${collection}.${name}.${child}`).toContain(childField.type);
            // An empty array leaves its children without values, which a required field would refuse.
            expect.soft(childField.optional, `${collection}.${name}.${child} optional`).toBe(true);
          }
        }
      }
    },
  );

  it('stores Unix seconds and identifiers as int64, money as float, locations as geopoints', () => {
    const type = (collection: CollectionName, field: string) => fieldsOf(collection).get(field)?.type;
    for (const [collection, field] of [
      ['Event', 'event_timestamp'],
      ['ZipEvent', 'event_timestamp'],
      ['Banner', 'starts_at'],
      ['Banner', 'ends_at'],
      ['Event', 'event_id'],
      ['Event', 'venue_id'],
      ['Performer', 'performer_id'],
    ] as const) {
      expect(type(collection, field), `${collection}.${field}`).toBe('int64');
    }
    expect(type('Event', 'performer_ids')).toBe('int64[]');
    for (const [collection, field] of [
      ['Event', 'min_ticket_price'],
      ['Performer', 'total_inventory_value'],
      ['Venue', 'total_inventory_value'],
      ['ZipEventDetermination', 'gross_ticket_value'],
      ['Event', 'venue_time_zone_offset'],
    ] as const) {
      expect(type(collection, field), `${collection}.${field}`).toBe('float');
    }
    expect(type('Performer', 'venues.min_ticket_price')).toBe('float[]');
    for (const [collection, field] of Object.entries(GEO_FIELDS) as [CollectionName, string][]) {
      expect(type(collection, field), `${collection}.${field}`).toBe(
        collection === 'Performer' ? 'geopoint[]' : 'geopoint',
      );
    }
  });

  it('marks the fields rows sort by as sortable, and category-like fields as facets', () => {
    const sortable: [CollectionName, string][] = [
      ['Performer', 'order_rank'],
      ['Performer', 'performer_orders_d7'],
      ['Performer', 'performer_orders_t12'],
      ['Performer', 'events_available'],
      ['Performer', 'total_inventory_value'],
      ['Venue', 'events_available'],
      ['Venue', 'total_inventory_value'],
      ['Event', 'event_timestamp'],
      ['Event', 'event_local_timestamp'],
      ['Event', 'event_orders_t12'],
      ['Event', 'min_ticket_price'],
      ['Explore', 'rank'],
      ['Banner', 'priority'],
      ['ZipEventDetermination', 'gross_ticket_value'],
      ['USCity', 'population'],
    ];
    for (const [collection, field] of sortable)
      expect(fieldsOf(collection).get(field)?.sort, `${collection}.${field}`).toBe(true);
    const facets: [CollectionName, string][] = [
      ['Performer', 'category'],
      ['Performer', 'parent'],
      ['Event', 'category'],
      ['Event', 'major_category'],
      ['Event', 'event_status'],
      ['Venue', 'venue_country_short'],
      ['Explore', 'entity_type'],
      ['Banner', 'placement'],
      ['ZipEvent', 'cat'],
      ['ZipEventDetermination', 'key_type'],
      ['USCity', 'state_id'],
    ];
    for (const [collection, field] of facets)
      expect(fieldsOf(collection).get(field)?.facet, `${collection}.${field}`).toBe(true);
  });

  it('lets every plain string be a sort key except links and image paths', () => {
    const links = new Set(['image', 'url', 'path_picture', 'image_url']);
    for (const collection of COLLECTION_NAMES) {
      for (const field of collectionFields(collection).filter((f) => f.type === 'string')) {
        expect(field.sort === true, `${collection}.${field.name}`).toBe(!links.has(field.name));
      }
    }
  });

  it('declares every searchable field as text', () => {
    for (const collection of COLLECTION_NAMES) {
      for (const field of SEARCHABLE_FIELDS[collection]) {
        expect(['string', 'string[]'], `${collection}.${field}`).toContain(fieldsOf(collection).get(field)?.type);
      }
    }
  });

  it('builds the create schema, with nested fields enabled only where an object array is', () => {
    const performer = collectionSchema('Performer', 'shop_Performer_v1');
    expect(performer.name).toBe('shop_Performer_v1');
    expect(performer.enable_nested_fields).toBe(true);
    expect(performer.fields).toContainEqual({ name: 'venues', type: 'object[]' });
    expect(performer.fields).toContainEqual({ name: 'venues.min_ticket_price', type: 'float[]', optional: true });
    expect(performer.fields).toContainEqual({ name: 'venue_locations', type: 'geopoint[]' });
    expect(performer.fields.findIndex((f) => f.name === 'venues')).toBeLessThan(
      performer.fields.findIndex((f) => f.name === 'venues.venue_id'),
    );
    for (const collection of COLLECTION_NAMES.filter((c) => c !== 'Performer')) {
      expect(collectionSchema(collection, collection), collection).not.toHaveProperty('enable_nested_fields');
    }
    expect(collectionSchema('Event', 'Event_v1').fields).toContainEqual({
      name: 'event_timestamp',
      type: 'int64',
      sort: true,
      optional: true,
    });
  });

  it('names aliases and versions, and recognises only versions of the same collection', () => {
    expect(aliasName('', 'Event')).toBe('Event');
    expect(aliasName('shop_', 'Event')).toBe('shop_Event');
    expect(versionedName('shop_', 'Event', 1700000000000)).toBe('shop_Event_v1700000000000');
    expect(versionOf('shop_', 'Event', 'shop_Event_v17')).toBe(17);
    expect(versionOf('', 'Event', 'ZipEvent_v17')).toBeNull();
    expect(versionOf('', 'Event', 'Event')).toBeNull();
    expect(versionOf('', 'Event', 'Event_v17_old')).toBeNull();
    expect(versionOf('shop_', 'Event', 'Event_v17')).toBeNull();
    expect(versionOf('a.b', 'Event', 'aXbEvent_v1')).toBeNull();
  });

  it('lists every field by name for the compiler, nested children and id included', () => {
    expect(FIELD_TYPES.Performer.get('venues.venue_name')).toEqual({ type: 'string[]', optional: true });
    expect(FIELD_TYPES.Event.get('id')).toEqual({ type: 'string' });
    expect(FIELD_TYPES.Event.get('event_local_timestamp')).toEqual({ type: 'string', sort: true, optional: true });
    for (const collection of COLLECTION_NAMES)
      expect(Object.keys(COLLECTION_FIELDS[collection]).length).toBeGreaterThan(0);
  });
});
