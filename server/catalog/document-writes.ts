import type { z } from 'zod';
import { jsonValueProblem } from '../../shared/rules/json-limits.js';
import {
  COLLECTION_SCHEMAS,
  ENTITY_ID_FIELDS,
  idProblem,
  type CollectionName,
} from '../../shared/schemas/documents.js';
import { COLLECTION_FIELDS, type FieldSpec, type NestedSpec } from './collection-fields.js';

/**
 * What a write asks of the document with its id, as Typesense's documents API defines it:
 * - `create`: a new document; an error when one with that id exists;
 * - `upsert`: the whole document, created or replaced;
 * - `update`: the given fields over an existing document; an error when there is none;
 * - `emplace`: the given fields over an existing document, or a new whole document when there is none.
 */
export const WRITE_ACTIONS = ['create', 'upsert', 'update', 'emplace'] as const;
export type WriteAction = (typeof WRITE_ACTIONS)[number];

/**
 * What a value of the wrong type does (Typesense's `dirty_values`): `coerce_or_reject` (the default) turns it
 * into the field's type when it can ("12" for a number, 12 for a string) and refuses the document when not;
 * `coerce_or_drop` drops the field instead of refusing; `drop` drops it without trying; `reject` refuses.
 * A dropped field that the document needs still fails the schema.
 */
export const DIRTY_VALUES = ['coerce_or_reject', 'coerce_or_drop', 'drop', 'reject'] as const;
export type DirtyValues = (typeof DIRTY_VALUES)[number];

export type Doc = Record<string, unknown> & { id: string };

/** A write ready to apply: the whole document as it will stand. */
export interface PreparedWrite {
  ok: true;
  id: string;
  document: Doc;
  /** Whether a document with this id existed. */
  replaced: boolean;
}

/** A write refused, with Typesense's status code for it and a message naming the problem. */
export interface RefusedWrite {
  ok: false;
  code: 400 | 404 | 409;
  error: string;
}

/**
 * The document a write of `input` leaves, given the one stored under its id (`existing`), or why it is refused.
 * The id may be left out when the collection has an entity id (`event_id`…): it is that number as a string.
 */
export function prepareWrite(
  collection: CollectionName,
  action: WriteAction,
  input: unknown,
  existing: (id: string) => Doc | undefined,
  dirty: DirtyValues = 'coerce_or_reject',
): PreparedWrite | RefusedWrite {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return refuse(400, 'Bad JSON: a document must be a JSON object.');
  // RULES 14.15: an import's line is parsed on its own, past the API's check of a body.
  const unkeepable = jsonValueProblem(input, 'the document');
  if (unkeepable) return refuse(400, `Bad JSON: ${unkeepable}.`);
  const given = { ...(input as Record<string, unknown>) };
  const id = documentId(collection, given);
  if (typeof id !== 'string') return refuse(400, id.error);
  given.id = id;
  const fields = COLLECTION_FIELDS[collection] as Record<string, FieldSpec | NestedSpec>;
  for (const name of Object.keys(given)) {
    if (name !== 'id' && !(name in fields))
      return refuse(400, `Field \`${name}\` is not a field of ${collection} documents.`);
  }
  const cleaned = cleanValues(fields, given, dirty);
  if (typeof cleaned === 'string') return refuse(400, cleaned);
  const before = existing(id);
  let whole: Record<string, unknown>;
  switch (action) {
    case 'create':
      if (before) return refuse(409, `A document with id ${id} already exists.`);
      whole = cleaned;
      break;
    case 'upsert':
      whole = cleaned;
      break;
    case 'update':
      if (!before) return refuse(404, `Could not find a document with id: ${id}`);
      whole = { ...before, ...cleaned };
      break;
    case 'emplace':
      whole = before ? { ...before, ...cleaned } : cleaned;
      break;
  }
  const schema = COLLECTION_SCHEMAS[collection] as z.ZodType;
  const parsed = schema.safeParse(whole);
  if (!parsed.success) return refuse(400, describeIssue(parsed.error.issues[0]!, whole));
  const document = parsed.data as Doc;
  const mismatch = idProblem(collection, document);
  if (mismatch) return refuse(400, mismatch);
  return { ok: true, id, document, replaced: before !== undefined };
}

function refuse(code: RefusedWrite['code'], error: string): RefusedWrite {
  return { ok: false, code, error };
}

/** The id a document given as `input` would be written under, when it names a usable one. */
export function documentIdOf(collection: CollectionName, input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const id = documentId(collection, input as Record<string, unknown>);
  return typeof id === 'string' ? id : undefined;
}

/** The document's id: as given (a string), or its entity id as a string when it has one and no id. */
function documentId(collection: CollectionName, doc: Record<string, unknown>): string | { error: string } {
  const id = doc.id;
  if (id === undefined) {
    const entityField = ENTITY_ID_FIELDS[collection];
    const entityId = entityField ? doc[entityField] : undefined;
    if (typeof entityId === 'number' && Number.isSafeInteger(entityId) && entityId > 0) return String(entityId);
    return { error: `Document has no \`id\`${entityField ? ` and no \`${entityField}\` to take it from` : ''}.` };
  }
  if (typeof id !== 'string')
    return { error: `Document's \`id\` field should be a string, not ${JSON.stringify(id)}.` };
  // Typesense's advice (no characters a URL must encode), kept to what its filters quote safely too.
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(id))
    return { error: `Document's \`id\` ${JSON.stringify(id)} must be 1–64 letters, digits, '_', '.' or '-'.` };
  return id;
}

/** Applies `dirty_values` to every given field: the fields as they will be written, or the first refusal. */
function cleanValues(
  fields: Record<string, FieldSpec | NestedSpec>,
  doc: Record<string, unknown>,
  dirty: DirtyValues,
): Record<string, unknown> | string {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(doc)) {
    const spec = fields[name];
    if (!spec || value === null || fits(spec, value)) {
      out[name] = value;
      continue;
    }
    const coerced = dirty === 'coerce_or_reject' || dirty === 'coerce_or_drop' ? coerce(spec, value) : undefined;
    if (coerced !== undefined) out[name] = coerced;
    else if (dirty === 'coerce_or_reject' || dirty === 'reject')
      return `Field \`${name}\` must be ${typeName(spec)}, not ${JSON.stringify(value)}.`;
    // drop and coerce_or_drop leave the field out.
  }
  return out;
}

function fits(spec: FieldSpec, value: unknown): boolean {
  const base = spec.type.replace('[]', '');
  const one = (v: unknown) => {
    switch (base) {
      case 'string':
        return typeof v === 'string';
      case 'int32':
      case 'int64':
        return typeof v === 'number' && Number.isInteger(v);
      case 'float':
        return typeof v === 'number' && Number.isFinite(v);
      case 'bool':
        return typeof v === 'boolean';
      case 'geopoint':
        return Array.isArray(v) && v.length === 2 && v.every((n) => typeof n === 'number');
      default:
        return true;
    }
  };
  if (spec.type === 'geopoint') return one(value);
  return spec.type.endsWith('[]') ? Array.isArray(value) && value.every(one) : one(value);
}

/** The value in the field's type, or undefined when it has none (Typesense coerces numbers, strings and booleans). */
function coerce(spec: FieldSpec, value: unknown): unknown {
  const base = spec.type.replace('[]', '');
  const one = (v: unknown): unknown => {
    if (base === 'string') return typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
    if (base === 'int32' || base === 'int64' || base === 'float') {
      const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : typeof v === 'boolean' ? Number(v) : NaN;
      if (!Number.isFinite(n)) return undefined;
      return base === 'float' || Number.isInteger(n) ? n : undefined;
    }
    if (base === 'bool') return v === 'true' ? true : v === 'false' ? false : undefined;
    return undefined;
  };
  if (spec.type === 'geopoint' || spec.type === 'geopoint[]' || spec.type === 'object[]') return undefined;
  if (!spec.type.endsWith('[]')) return one(value);
  if (!Array.isArray(value)) return undefined;
  const items = value.map((v) => (fits({ ...spec, type: base } as FieldSpec, v) ? v : one(v)));
  return items.includes(undefined) ? undefined : items;
}

function typeName(spec: FieldSpec): string {
  const names: Record<string, string> = {
    string: 'a string',
    int32: 'a whole number',
    int64: 'a whole number',
    float: 'a number',
    bool: 'true or false',
    geopoint: 'a [latitude, longitude] pair',
  };
  if (spec.type.endsWith('[]'))
    return `an array of ${spec.type === 'object[]' ? 'objects' : (names[spec.type.replace('[]', '')] ?? spec.type)}`;
  return names[spec.type] ?? spec.type;
}

/** One schema issue as a sentence naming the field path and the value found there. */
export function describeIssue(issue: z.core.$ZodIssue, doc: unknown): string {
  const path = issue.path.map(String);
  let value: unknown = doc;
  for (const key of path)
    value = value === null || typeof value !== 'object' ? undefined : (value as Record<string, unknown>)[key];
  const where = path.length ? `Field \`${path.join('.')}\`` : 'Document';
  return (
    `${where}: ` +
    `${issue.message}${path.length ? ` (found ${value === undefined ? 'nothing' : JSON.stringify(value)})` : ''}.`
  );
}
