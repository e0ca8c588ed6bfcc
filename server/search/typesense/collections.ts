import type { CollectionCreateSchema, CollectionFieldSchema } from 'typesense';
import { COLLECTION_NAMES, type CollectionName } from '../../../shared/schemas/documents.js';
import { COLLECTION_FIELDS, type FieldSpec, type NestedSpec } from '../../catalog/collection-fields.js';

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
