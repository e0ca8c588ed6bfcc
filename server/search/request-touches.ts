import type { ParsedSearchRequest } from '../../shared/schemas/search.js';
import { compileDocumentTest, withinRadius } from './filter-match.js';

/** Whether a document (of the request's collection) could be among a request's answers. */
export type Touches = (doc: Record<string, unknown>) => boolean;

/**
 * The test of whether a document could be among the answers of `request`: every filter and the radius passing.
 * Text is not looked at (any document could match some words), so it may say yes when the engine would say no,
 * never the other way round: it decides which cached answers a change to a document makes stale, where a
 * needless drop costs one query and a missed one shows shoppers the old catalog. Compiled once per request,
 * since a change is tested against every cached row.
 */
export function compileTouches(request: ParsedSearchRequest): Touches {
  const tests = request.filters.map(compileDocumentTest);
  const geo = request.geo;
  // The radius first: for most rows it is what rules a document out, and it costs no allocation.
  return (doc) => (!geo || withinRadius(doc, geo)) && tests.every((test) => test(doc));
}

/** The points of a document's point field (one point, or a list of them). */
export function pointsAt(doc: Record<string, unknown>, field: string): [number, number][] {
  const value = doc[field];
  if (!Array.isArray(value)) return [];
  if (value.length === 2 && typeof value[0] === 'number') return [value as [number, number]];
  return value.filter((p): p is [number, number] => Array.isArray(p) && p.length === 2);
}
