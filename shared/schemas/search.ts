import { MAX_QUERY_LENGTH } from '../rules/constants.js';
import { z } from './zod.js';
import { CollectionNameSchema } from './documents.js';

/** RULES 7.17, 8.3 and Typesense's own ceiling: at most 250 hits a page. */
export const MAX_PER_PAGE = 250;
/** Beyond this, deep pagination is refused rather than scanned. */
export const MAX_PAGE = 1000;
/** Values an `in`/`nin` filter may list. */
export const MAX_IN_VALUES = 250;
export const MAX_SORT_KEYS = 3;
/** The query that matches every document. */
export const MATCH_ALL = '*';

/** A document field, possibly nested (`venues.min_ticket_price`); never user text. */
export const FieldNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/, 'not a field name');
const scalar = z.union([z.string().max(200), z.number().finite(), z.boolean()]);

export const FilterSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('eq'), field: FieldNameSchema, value: scalar }),
  z.object({ op: z.literal('neq'), field: FieldNameSchema, value: scalar }),
  z.object({ op: z.literal('in'), field: FieldNameSchema, values: z.array(scalar).min(1).max(MAX_IN_VALUES) }),
  z.object({ op: z.literal('nin'), field: FieldNameSchema, values: z.array(scalar).min(1).max(MAX_IN_VALUES) }),
  z.object({ op: z.enum(['gt', 'gte', 'lt', 'lte']), field: FieldNameSchema, value: z.number().finite() }),
  /** Inclusive on both ends. */
  z.object({ op: z.literal('between'), field: FieldNameSchema, min: z.number().finite(), max: z.number().finite() }),
]);
export type Filter = z.infer<typeof FilterSchema>;

export const GeoFilterSchema = z.object({
  field: FieldNameSchema,
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  /** Inclusive radius in miles. */
  radiusMiles: z.number().positive().max(12_500),
});
export type GeoFilter = z.infer<typeof GeoFilterSchema>;

export const TEXT_MATCH = '_text_match';
export const GEO_DISTANCE = '_geo_distance';
export const SortKeySchema = z.object({
  /** A numeric or string field, `_text_match` (relevance) or `_geo_distance` (needs `geo`). */
  by: FieldNameSchema,
  order: z.enum(['asc', 'desc']),
});
export type SortKey = z.infer<typeof SortKeySchema>;

/**
 * The longest text an engine request carries: a shopper's query of at most `MAX_QUERY_LENGTH` characters, lower-cased
 * (RULES 7.6), which can double it ("İ" lower-cases to "i" and a combining dot) and never more.
 */
const MAX_ENGINE_QUERY_LENGTH = 2 * MAX_QUERY_LENGTH;

export const SearchRequestSchema = z
  .object({
    collection: CollectionNameSchema,
    q: z.string().max(MAX_ENGINE_QUERY_LENGTH).default(MATCH_ALL),
    /** Fields the text is matched against, most important first. */
    queryBy: z.array(FieldNameSchema).max(8).default([]),
    /**
     * Relative weight of each `queryBy` field (Typesense's query_by_weights); by default each counts twice the next.
     */
    queryByWeights: z.array(z.number().int().min(0).max(127)).max(8).optional(),
    filters: z.array(FilterSchema).max(20).default([]),
    geo: GeoFilterSchema.optional(),
    sort: z.array(SortKeySchema).max(MAX_SORT_KEYS).default([]),
    page: z.number().int().min(1).max(MAX_PAGE).default(1),
    perPage: z.number().int().min(0).max(MAX_PER_PAGE).default(10),
    /** Only these document fields come back; all when absent. */
    includeFields: z.array(FieldNameSchema).max(50).optional(),
  })
  .superRefine((req, ctx) => {
    const text = req.q.trim();
    if (text !== MATCH_ALL && text !== '' && req.queryBy.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['queryBy'], message: 'a text query needs at least one field to match' });
    }
    if (req.queryByWeights && req.queryByWeights.length !== req.queryBy.length) {
      ctx.addIssue({ code: 'custom', path: ['queryByWeights'], message: 'needs one weight per queryBy field' });
    }
    if (req.sort.some((s) => s.by === GEO_DISTANCE) && !req.geo) {
      ctx.addIssue({ code: 'custom', path: ['sort'], message: 'sorting by distance needs a geo filter' });
    }
  });
export type SearchRequest = z.input<typeof SearchRequestSchema>;
export type ParsedSearchRequest = z.output<typeof SearchRequestSchema>;

const parsedRequests = new WeakSet<object>();

/**
 * A request validated, defaults filled. What this returned passes through it again unchanged (frozen, so it
 * cannot have changed): the result cache parses each request once and hands the engine the parsed one.
 */
export function parseSearchRequest(input: unknown): ParsedSearchRequest {
  if (typeof input === 'object' && input !== null && parsedRequests.has(input)) return input as ParsedSearchRequest;
  const parsed = Object.freeze(SearchRequestSchema.parse(input));
  parsedRequests.add(parsed);
  return parsed;
}

export interface SearchHit<D> {
  document: D;
  /** Relevance: higher is better; 0 for a match-all query. Engines scale differently; only order is shared. */
  textMatch: number;
  /** Miles from the geo filter's point, when there is one. */
  geoDistanceMiles?: number;
}

export interface SearchResult<D> {
  hits: SearchHit<D>[];
  found: number;
  page: number;
  searchTimeMs: number;
}
