import { Client } from 'typesense';
import type { SearchResponse } from 'typesense';
import type { CollectionDocuments, CollectionName } from '../../../shared/schemas/documents.js';
import {
  MATCH_ALL,
  parseSearchRequest,
  type ParsedSearchRequest,
  type SearchHit,
  type SearchResult,
} from '../../../shared/schemas/search.js';
import { AppError } from '../../http/errors.js';
import type { SearchEngine, SearchRequestFor } from '../search-engine.js';
import { aliasName } from './collections.js';
import { compileSearch, type TypesenseSearchParams } from './compile.js';
import { clientOptions, type TypesenseConfig } from '../../config/typesense.js';

type Doc = Record<string, unknown>;

/** The part of the `typesense` Client the engine uses; tests pass a fake of this shape. */
export interface TypesenseSearchClient {
  collections(name: string): {
    documents(): { search(params: TypesenseSearchParams): Promise<SearchResponse<Doc>> };
  };
  multiSearch: {
    perform(requests: {
      searches: (TypesenseSearchParams & { collection: string })[];
    }): Promise<{ results: readonly SearchResponse<Doc>[] }>;
  };
  health: { retrieve(): Promise<{ ok: boolean }> };
}

const METERS_PER_MILE = 1609.344;

/**
 * Typesense refuses GET query strings over 4000 characters (a long `in` list gets there); such searches go
 * through multi_search, a POST. Measured with URLSearchParams, which escapes more than the client does.
 */
export const MAX_GET_QUERY_LENGTH = 3800;

export function queryStringLength(params: TypesenseSearchParams): number {
  const entries = Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]);
  return new URLSearchParams(entries).toString().length;
}

/** The production search engine: every collection is searched through its alias on a Typesense cluster. */
export class TypesenseEngine implements SearchEngine {
  readonly kind = 'typesense' as const;
  private readonly client: TypesenseSearchClient;
  private readonly prefix: string;

  constructor(config: TypesenseConfig, client?: TypesenseSearchClient) {
    this.client = client ?? new Client(clientOptions(config));
    this.prefix = config.collectionPrefix;
  }

  async search<C extends CollectionName>(
    input: SearchRequestFor<C>,
  ): Promise<SearchResult<Partial<CollectionDocuments[C]>>> {
    const request = parseSearchRequest(input);
    const params = compileSearch(request);
    const alias = aliasName(this.prefix, request.collection);
    let response: SearchResponse<Doc>;
    try {
      response =
        queryStringLength(params) <= MAX_GET_QUERY_LENGTH
          ? await this.client.collections(alias).documents().search(params)
          : await this.searchByPost(alias, params);
    } catch (err) {
      throw searchFailure(err, alias);
    }
    return mapSearchResponse(response, request) as SearchResult<Partial<CollectionDocuments[C]>>;
  }

  private async searchByPost(alias: string, params: TypesenseSearchParams): Promise<SearchResponse<Doc>> {
    const { results } = await this.client.multiSearch.perform({ searches: [{ collection: alias, ...params }] });
    const result = results[0];
    if (!result) throw new Error('Typesense multi_search answered no result');
    // multi_search answers 200 and reports a failed search inside the result.
    if (typeof result.error === 'string') throw Object.assign(new Error(result.error), { httpStatus: result.code });
    return result;
  }

  async health(): Promise<{ ok: boolean; detail: string }> {
    try {
      const answer = await this.client.health.retrieve();
      return answer.ok
        ? { ok: true, detail: 'Typesense is healthy' }
        : { ok: false, detail: 'Typesense reports it is not ready' };
    } catch (err) {
      return { ok: false, detail: `Typesense unreachable: ${err instanceof Error ? err.message : String(err)}` };
    }
  }
}

/** Typesense's answer in the port's terms. */
export function mapSearchResponse(response: SearchResponse<Doc>, request: ParsedSearchRequest): SearchResult<Doc> {
  const q = request.q.trim();
  const matchAll = q === '' || q === MATCH_ALL;
  const hits = (response.hits ?? []).map((hit): SearchHit<Doc> => {
    const mapped: SearchHit<Doc> = {
      document: hit.document,
      // Typesense scores wildcard hits too; the port promises 0 for a match-all query.
      textMatch: matchAll ? 0 : typeof hit.text_match === 'number' ? hit.text_match : 0,
    };
    const meters = request.geo ? geoMeters(hit.geo_distance_meters, request.geo.field) : undefined;
    if (meters !== undefined) mapped.geoDistanceMiles = meters / METERS_PER_MILE;
    return mapped;
  });
  return { hits, found: response.found, page: response.page, searchTimeMs: response.search_time_ms };
}

function geoMeters(distances: Record<string, number> | undefined, field: string): number | undefined {
  if (!distances) return undefined;
  const meters = distances[field] ?? Object.values(distances)[0];
  return typeof meters === 'number' && Number.isFinite(meters) ? meters : undefined;
}

/**
 * A refused search is the caller's fault (400); anything else — unreachable nodes, timeouts, a missing
 * collection — means search is unavailable (503). The original error stays as `cause` for the logs.
 */
function searchFailure(err: unknown, alias: string): AppError {
  const status = (err as { httpStatus?: unknown } | null)?.httpStatus;
  const message = err instanceof Error ? err.message : String(err);
  const failure =
    status === 400
      ? new AppError(400, 'invalid_search', `Typesense refused the search: ${message}`)
      : status === 404
        ? new AppError(503, 'search_unavailable', `Search collection ${alias} is missing: run the search indexer`)
        : new AppError(503, 'search_unavailable', 'Search is unavailable');
  failure.cause = err;
  return failure;
}
