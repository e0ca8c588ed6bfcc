import type { CollectionDocuments, CollectionName } from '../../shared/schemas/documents.js';
import type { SearchRequest, SearchResult } from '../../shared/schemas/search.js';

export type SearchRequestFor<C extends CollectionName> = SearchRequest & { collection: C };

/**
 * The search port: every row, suggestion and results page asks through it. Two engines implement it, the
 * embedded one (in-process, the default) and Typesense (production); one contract suite holds both to the
 * same answers.
 */
export interface SearchEngine {
  readonly kind: 'embedded' | 'typesense';
  search<C extends CollectionName>(
    request: SearchRequestFor<C>,
  ): Promise<SearchResult<Partial<CollectionDocuments[C]>>>;
  /** Whether the engine can answer now, with a word on why not. */
  health(): Promise<{ ok: boolean; detail: string }>;
}

/** RULES 7.17: text fields of each collection, in weight order, that queries may match against. */
export const SEARCHABLE_FIELDS: { [C in CollectionName]: readonly (keyof CollectionDocuments[C] & string)[] } = {
  Performer: ['performer_name'],
  Venue: ['venue_name', 'venue_city'],
  Event: ['event_name', 'performer_names', 'venue_name', 'venue_city'],
  Explore: ['text'],
  Banner: ['title', 'subtitle'],
  ZipEvent: [],
  ZipEventDetermination: [],
  USCity: ['city', 'state_name'],
  TSImage: [],
};

/** The geopoint field of each collection that has one. */
export const GEO_FIELDS: Partial<Record<CollectionName, string>> = {
  Performer: 'venue_locations',
  Venue: 'venue_location',
  Event: 'venue_location',
  ZipEventDetermination: 'location',
  USCity: 'location',
};

/** A document as the catalog holds it: any collection's, with its string id. */
export type CatalogDocument = Record<string, unknown> & { id: string };

/** One change to apply: a document as it now stands, or its deletion (`document: null`). */
export interface DocumentChange {
  collection: CollectionName;
  id: string;
  document: CatalogDocument | null;
}

/**
 * The catalog's write port: the live catalog reads documents through it and applies changes to it. The
 * embedded engine is each node's own; Typesense is one engine that every node reads (`shared`), so only the
 * node taking a write applies it there.
 */
export interface CatalogEngine {
  readonly shared: boolean;
  /** The stored documents among `ids` (those that exist), by id. */
  documents(collection: CollectionName, ids: readonly string[]): Promise<Map<string, CatalogDocument>>;
  /** Applies changes in order; fails whole or leaves each applied change applied (applying one again is harmless). */
  apply(changes: readonly DocumentChange[]): Promise<void>;
}
