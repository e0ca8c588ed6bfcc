import {
  FieldNameSchema,
  GEO_DISTANCE,
  MATCH_ALL,
  MAX_SORT_KEYS,
  TEXT_MATCH,
  type Filter,
  type GeoFilter,
  type ParsedSearchRequest,
  type SortKey,
} from '../../../shared/schemas/search.js';
import { AppError } from '../../http/errors.js';
import { MAX_PREFIX_CANDIDATES, TYPO_MIN_LENGTH_1, TYPO_MIN_LENGTH_2 } from '../../../shared/rules/constants.js';
import type { FieldSpec } from '../../catalog/collection-fields.js';
import { FIELD_TYPES } from './collections.js';

/** The search parameters this adapter sends: a subset of Typesense's, always in this shape. */
export interface TypesenseSearchParams {
  q: string;
  query_by?: string;
  query_by_weights?: string;
  prefix?: boolean;
  num_typos?: number;
  min_len_1typo?: number;
  min_len_2typo?: number;
  max_candidates?: number;
  typo_tokens_threshold?: number;
  drop_tokens_threshold?: number;
  filter_by?: string;
  sort_by?: string;
  page: number;
  per_page: number;
  include_fields?: string;
}

/** A request Typesense cannot be asked safely or faithfully; the HTTP layer answers it with a 400. */
export class SearchCompileError extends AppError {
  constructor(message: string, details?: { field?: string; value?: unknown }) {
    super(400, 'invalid_search', message, details);
    this.name = 'SearchCompileError';
  }
}

/**
 * Text matching as the embedded engine reproduces it, pinned rather than left to server defaults: typos only
 * when the exact words find nothing, 1 typo from 4 characters, 2 from 7, a last-word prefix standing for its
 * 4 most frequent completions.
 */
export const TEXT_MATCH_SETTINGS = {
  num_typos: 2,
  min_len_1typo: TYPO_MIN_LENGTH_1,
  min_len_2typo: TYPO_MIN_LENGTH_2,
  max_candidates: MAX_PREFIX_CANDIDATES,
  typo_tokens_threshold: 1,
  // Every word must match, as in the embedded engine; Typesense would otherwise drop words to find something.
  drop_tokens_threshold: 0,
} as const;

/** Typesense's ceiling for a query_by weight. */
const MAX_FIELD_WEIGHT = 127;

const NUMERIC_TYPES = new Set(['int32', 'int64', 'float', 'int32[]', 'int64[]', 'float[]']);
const SORTABLE_NUMERIC = new Set(['int32', 'int64', 'float']);
const TEXT_TYPES = new Set(['string', 'string[]']);
const GEO_TYPES = new Set(['geopoint', 'geopoint[]']);
const UNFILTERABLE = new Set(['object', 'object[]', 'geopoint', 'geopoint[]']);

/**
 * Compiles a parsed search request into Typesense search parameters. Pure: the same request always gives the
 * same parameters, and nothing the user typed can reach `filter_by` or `sort_by` outside a quoted value.
 */
export function compileSearch(request: ParsedSearchRequest): TypesenseSearchParams {
  const fields = FIELD_TYPES[request.collection];
  if (!fields) throw new SearchCompileError(`unknown collection ${String(request.collection)}`);
  const lookup = (field: string): FieldSpec => {
    checkFieldName(field);
    const spec = fields.get(field);
    if (!spec) throw new SearchCompileError(`${request.collection} has no field \`${field}\``, { field });
    return spec;
  };

  const text = request.q.trim();
  const isText = text !== '' && text !== MATCH_ALL;
  const params: TypesenseSearchParams = { q: isText ? text : MATCH_ALL, page: request.page, per_page: request.perPage };

  if (isText) {
    if (request.queryBy.length === 0) throw new SearchCompileError('a text query needs at least one field to match');
    for (const field of request.queryBy) {
      if (!TEXT_TYPES.has(lookup(field).type)) {
        throw new SearchCompileError(`\`${field}\` is not a text field`, { field });
      }
    }
    params.query_by = request.queryBy.join(',');
    if (request.queryByWeights)
      params.query_by_weights = checkWeights(request.queryByWeights, request.queryBy.length).join(',');
    else if (request.queryBy.length > 1) params.query_by_weights = fieldWeights(request.queryBy.length).join(',');
    // Typesense treats only the last word as a prefix, as the embedded engine does, for search-as-you-type.
    params.prefix = true;
    Object.assign(params, TEXT_MATCH_SETTINGS);
  }

  const clauses = request.filters.map((filter) => compileFilter(filter, lookup(filter.field)));
  if (request.geo) {
    const spec = lookup(request.geo.field);
    if (!GEO_TYPES.has(spec.type))
      throw new SearchCompileError(`\`${request.geo.field}\` is not a geo field`, { field: request.geo.field });
    clauses.push(compileGeoFilter(request.geo));
  }
  if (clauses.length > 0) params.filter_by = clauses.join(' && ');

  const sortBy = compileSort(request.sort, request.geo, isText, lookup);
  if (sortBy.length > 0) params.sort_by = sortBy.join(',');

  if (request.includeFields && request.includeFields.length > 0) {
    request.includeFields.forEach(checkFieldName);
    params.include_fields = request.includeFields.join(',');
  }
  return params;
}

/** Each field weighs twice the next, the ratio the embedded engine boosts by, within Typesense's 0–127. */
export function fieldWeights(count: number): number[] {
  return Array.from({ length: count }, (_, i) => Math.min(MAX_FIELD_WEIGHT, 2 ** (count - 1 - i)));
}

function checkWeights(weights: readonly number[], fields: number): readonly number[] {
  if (weights.length !== fields) throw new SearchCompileError('needs one weight per queryBy field');
  for (const weight of weights) {
    if (!Number.isInteger(weight) || weight < 0 || weight > MAX_FIELD_WEIGHT) {
      throw new SearchCompileError(`field weights are integers from 0 to ${MAX_FIELD_WEIGHT}`, { value: weight });
    }
  }
  return weights;
}

function compileFilter(filter: Filter, spec: FieldSpec): string {
  const { field } = filter;
  if (UNFILTERABLE.has(spec.type)) throw new SearchCompileError(`\`${field}\` cannot be filtered on`, { field });
  switch (filter.op) {
    case 'eq':
      return `${field}:=${renderValue(filter.value, field)}`;
    case 'neq':
      return `${field}:!=${renderValue(filter.value, field)}`;
    case 'in':
      return `${field}:=${renderList(filter.values, field)}`;
    case 'nin':
      return `${field}:!=${renderList(filter.values, field)}`;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      requireNumeric(spec, field);
      const operator = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[filter.op];
      return `${field}:${operator}${renderNumber(filter.value, field)}`;
    }
    case 'between':
      requireNumeric(spec, field);
      return `${field}:[${renderNumber(filter.min, field)}..${renderNumber(filter.max, field)}]`;
    default:
      throw new SearchCompileError(`unknown filter operator ${String((filter as { op: unknown }).op)}`, { field });
  }
}

function compileGeoFilter(geo: GeoFilter): string {
  const { field } = geo;
  return (
    `${field}:(${renderNumber(geo.lat, field)}, ` +
    `${renderNumber(geo.lng, field)}, ${renderNumber(geo.radiusMiles, field)} ` +
    `mi)`
  );
}

function geoPoint(geo: GeoFilter): string {
  return `${geo.field}(${renderNumber(geo.lat, geo.field)}, ${renderNumber(geo.lng, geo.field)})`;
}

/**
 * The requested keys, then — while Typesense's limit of 3 allows — relevance and distance as tie-breakers:
 * relevance because the embedded engine breaks ties by it, distance because only a distance sort makes
 * Typesense return each hit's `geo_distance_meters`.
 */
function compileSort(
  keys: readonly SortKey[],
  geo: GeoFilter | undefined,
  isText: boolean,
  lookup: (field: string) => FieldSpec,
): string[] {
  const out: string[] = [];
  for (const key of keys) {
    if (key.order !== 'asc' && key.order !== 'desc')
      throw new SearchCompileError(`unknown sort order ${String(key.order)}`);
    if (key.by === TEXT_MATCH) {
      out.push(`${TEXT_MATCH}:${key.order}`);
    } else if (key.by === GEO_DISTANCE) {
      if (!geo) throw new SearchCompileError('sorting by distance needs a geo filter');
      out.push(`${geoPoint(geo)}:${key.order}`);
    } else {
      const spec = lookup(key.by);
      const sortable = SORTABLE_NUMERIC.has(spec.type) || (spec.type === 'string' && spec.sort === true);
      if (!sortable) throw new SearchCompileError(`\`${key.by}\` cannot be sorted on`, { field: key.by });
      // Nulls go last whichever the order, as in the embedded engine; Typesense puts null strings first on desc.
      out.push(spec.optional ? `${key.by}(missing_values: last):${key.order}` : `${key.by}:${key.order}`);
    }
  }
  if (out.length > MAX_SORT_KEYS) throw new SearchCompileError(`at most ${MAX_SORT_KEYS} sort keys`);
  const has = (by: string) => keys.some((k) => k.by === by);
  if (isText && !has(TEXT_MATCH) && out.length < MAX_SORT_KEYS) out.push(`${TEXT_MATCH}:desc`);
  if (geo && !has(GEO_DISTANCE) && out.length < MAX_SORT_KEYS) out.push(`${geoPoint(geo)}:asc`);
  return out;
}

function requireNumeric(spec: FieldSpec, field: string): void {
  if (!NUMERIC_TYPES.has(spec.type)) throw new SearchCompileError(`\`${field}\` is not numeric`, { field });
}

function checkFieldName(field: string): void {
  if (typeof field !== 'string' || !FieldNameSchema.safeParse(field).success) {
    throw new SearchCompileError(`not a field name: ${JSON.stringify(field)}`, { field: String(field) });
  }
}

function renderList(values: readonly unknown[], field: string): string {
  if (values.length === 0) throw new SearchCompileError(`\`${field}\` needs at least one value`, { field });
  return `[${values.map((v) => renderValue(v, field)).join(',')}]`;
}

function renderValue(value: unknown, field: string): string {
  if (typeof value === 'string') return quoteString(value, field);
  if (typeof value === 'number') return renderNumber(value, field);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  throw new SearchCompileError(`\`${field}\` takes a string, number or boolean`, { field });
}

// C0 and C1 controls and DEL (\p{Cc}), and lone surrogates (\p{Cs}, matched only when unpaired in `u` mode).
const UNSAFE_CHARS = /[\p{Cc}\p{Cs}]/u;

/**
 * A string as one backtick-quoted filter value. Refused rather than altered when Typesense could not read it
 * back as exactly that value:
 * - a backtick ends the quote and Typesense has no escape for it;
 * - a trailing backslash makes Typesense's value splitter read the closing backtick as a literal one, merging
 *   the value with the next;
 * - `:` followed by `(` (spaces between allowed) switches Typesense's tokenizer into geo-value mode, which
 *   ignores quotes until the next `)` and would swallow the clauses that follow;
 * - control characters and lone surrogates have no faithful encoding;
 * - Typesense trims values, so empty, blank or padded strings would match something else;
 * - a trailing `*` makes a prefix filter (and `*` alone means "any id").
 */
export function quoteString(value: string, field = ''): string {
  const refuse = (reason: string): never => {
    throw new SearchCompileError(`filter value for \`${field}\` ${reason}`, { field, value });
  };
  if (value.includes('`')) refuse('must not contain a backtick');
  if (value.endsWith('\\')) refuse('must not end with a backslash');
  if (/: *\(/.test(value)) refuse('must not contain `:` followed by `(`');
  if (UNSAFE_CHARS.test(value)) refuse('must not contain control characters');
  if (value.trim() === '') refuse('must not be empty');
  if (value.trim() !== value) refuse('must not start or end with whitespace');
  if (value.endsWith('*')) refuse('must not end with `*`');
  return `\`${value}\``;
}

/** A finite number in plain decimal notation, the only numeric form Typesense's filter parser reads. */
export function renderNumber(value: number, field = ''): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new SearchCompileError(`\`${field}\` needs a finite number`, { field, value: String(value) });
  }
  if (Object.is(value, -0)) return '0';
  const text = String(value);
  const e = text.indexOf('e');
  if (e === -1) return text;
  const negative = text.startsWith('-');
  const mantissa = text.slice(negative ? 1 : 0, e);
  const exponent = Number(text.slice(e + 1));
  const [whole = '', fraction = ''] = mantissa.split('.');
  const digits = whole + fraction;
  const point = whole.length + exponent;
  let plain: string;
  if (point <= 0) plain = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) plain = digits + '0'.repeat(point - digits.length);
  else plain = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${plain}` : plain;
}
