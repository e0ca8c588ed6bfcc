import { describe, expect, it } from 'vitest';
import type { SearchResponse } from 'typesense';
import { ZodError } from 'zod';
import { SearchRequestSchema } from '../../../shared/schemas/search.js';
import { AppError } from '../../http/errors.js';
import { compileSearch, SearchCompileError, type TypesenseSearchParams } from './compile.js';
import { parseTypesenseConfig } from '../../config/typesense.js';
import {
  MAX_GET_QUERY_LENGTH,
  queryStringLength,
  TypesenseEngine,
  type TypesenseSearchClient,
} from './typesense-engine.js';

type Doc = Record<string, unknown>;

const config = parseTypesenseConfig({
  TYPESENSE_URL: 'http://127.0.0.1:8108',
  TYPESENSE_API_KEY: 'test-key',
  TYPESENSE_COLLECTION_PREFIX: 'shop_',
})!;

function response(overrides: Partial<SearchResponse<Doc>> = {}): SearchResponse<Doc> {
  return { found: 0, out_of: 0, page: 1, search_time_ms: 0, request_params: {}, hits: [], ...overrides };
}

/** A fake of the client's search surface that records what it was asked. */
function fakeClient(answer: SearchResponse<Doc> | Error, health: { ok: boolean } | Error = { ok: true }) {
  const calls: { via: 'get' | 'post'; collection: string; params: TypesenseSearchParams }[] = [];
  const client: TypesenseSearchClient = {
    collections: (collection) => ({
      documents: () => ({
        search: async (params) => {
          calls.push({ via: 'get', collection, params });
          if (answer instanceof Error) throw answer;
          return answer;
        },
      }),
    }),
    multiSearch: {
      perform: async ({ searches }) => {
        const { collection, ...params } = searches[0]!;
        calls.push({ via: 'post', collection, params });
        if (answer instanceof Error) throw answer;
        return { results: [answer] };
      },
    },
    health: {
      retrieve: async () => {
        if (health instanceof Error) throw health;
        return health;
      },
    },
  };
  return { client, calls };
}

const httpError = (httpStatus: number, message: string) => Object.assign(new Error(message), { httpStatus });

describe('TypesenseEngine.search', () => {
  it('searches the prefixed alias with the compiled parameters', async () => {
    const { client, calls } = fakeClient(response());
    const engine = new TypesenseEngine(config, client);
    const request = {
      collection: 'Event' as const,
      q: 'knicks',
      queryBy: ['event_name'],
      filters: [{ op: 'eq' as const, field: 'category', value: 'nba' }],
    };
    await engine.search(request);
    expect(engine.kind).toBe('typesense');
    expect(calls).toEqual([
      { via: 'get', collection: 'shop_Event', params: compileSearch(SearchRequestSchema.parse(request)) },
    ]);
  });

  it('maps hits, relevance, found, page and search time', async () => {
    // Typesense scores text matches in 64 bits: a score past 2^53 comes through as the same number.
    const LARGE_TEXT_MATCH = 578730123365712000;
    const { client } = fakeClient(
      response({
        found: 42,
        page: 2,
        search_time_ms: 7,
        hits: [
          { document: { id: '1', event_name: 'Knicks vs Celtics' }, text_match: LARGE_TEXT_MATCH, highlight: {} },
          { document: { id: '2', event_name: 'Knicks vs Nets' }, text_match: 1060320051, highlight: {} },
        ],
      }),
    );
    const result = await new TypesenseEngine(config, client).search({
      collection: 'Event',
      q: 'knicks',
      queryBy: ['event_name'],
      page: 2,
    });
    expect(result).toEqual({
      hits: [
        { document: { id: '1', event_name: 'Knicks vs Celtics' }, textMatch: LARGE_TEXT_MATCH },
        { document: { id: '2', event_name: 'Knicks vs Nets' }, textMatch: 1060320051 },
      ],
      found: 42,
      page: 2,
      searchTimeMs: 7,
    });
  });

  it('reports 0 relevance for a match-all query and when Typesense sends none', async () => {
    const hit = { document: { id: '1' }, text_match: 100, highlight: {} };
    const { client } = fakeClient(response({ found: 1, hits: [hit] }));
    const engine = new TypesenseEngine(config, client);
    expect((await engine.search({ collection: 'Event' })).hits[0]!.textMatch).toBe(0);
    const { client: bare } = fakeClient(
      response({ found: 1, hits: [{ document: { id: '1' }, highlight: {} } as never] }),
    );
    expect(
      (await new TypesenseEngine(config, bare).search({ collection: 'Event', q: 'x', queryBy: ['event_name'] }))
        .hits[0]!.textMatch,
    ).toBe(0);
  });

  it('turns geo_distance_meters into miles, and leaves the distance out when Typesense gives none', async () => {
    const { client } = fakeClient(
      response({
        found: 2,
        hits: [
          {
            document: { id: '1' },
            text_match: 0,
            highlight: {},
            geo_distance_meters: { venue_location: 1609.344 },
          } as never,
          { document: { id: '2' }, text_match: 0, highlight: {} },
        ],
      }),
    );
    const result = await new TypesenseEngine(config, client).search({
      collection: 'Event',
      geo: { field: 'venue_location', lat: 40.75, lng: -73.99, radiusMiles: 10 },
    });
    expect(result.hits[0]!.geoDistanceMiles).toBeCloseTo(1, 12);
    expect(result.hits[1]).not.toHaveProperty('geoDistanceMiles');
  });

  it('gives no distance without a geo filter, and an empty page when Typesense sends no hits', async () => {
    const { client } = fakeClient(response({ found: 0, hits: undefined }));
    expect(await new TypesenseEngine(config, client).search({ collection: 'USCity' })).toEqual({
      hits: [],
      found: 0,
      page: 1,
      searchTimeMs: 0,
    });
  });

  it('posts through multi_search when the query string would pass Typesense’s GET limit', async () => {
    const { client, calls } = fakeClient(response({ found: 3 }));
    const values = Array.from({ length: 250 }, (_, i) => `performer-slug-number-${i}`);
    const request = { collection: 'Event' as const, filters: [{ op: 'in' as const, field: 'category', values }] };
    expect(queryStringLength(compileSearch(SearchRequestSchema.parse(request)))).toBeGreaterThan(MAX_GET_QUERY_LENGTH);
    const result = await new TypesenseEngine(config, client).search(request);
    expect(result.found).toBe(3);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ via: 'post', collection: 'shop_Event' });
    expect(calls[0]!.params.filter_by).toContain('`performer-slug-number-249`');
  });

  it('reports a failed multi_search result as a failure', async () => {
    const { client } = fakeClient(
      response({ error: 'Could not find a filter field', code: 400 } as Partial<SearchResponse<Doc>>),
    );
    const values = Array.from({ length: 250 }, (_, i) => `performer-slug-number-${i}`);
    await expect(
      new TypesenseEngine(config, client).search({
        collection: 'Event',
        filters: [{ op: 'in', field: 'category', values }],
      }),
    ).rejects.toMatchObject({ status: 400, code: 'invalid_search' });
  });

  it('refuses an invalid or unsafe request before calling Typesense', async () => {
    const { client, calls } = fakeClient(response());
    const engine = new TypesenseEngine(config, client);
    await expect(engine.search({ collection: 'Event', perPage: 1000 })).rejects.toBeInstanceOf(ZodError);
    await expect(
      engine.search({ collection: 'Event', filters: [{ op: 'eq', field: 'category', value: 'a` || b' }] }),
    ).rejects.toBeInstanceOf(SearchCompileError);
    expect(calls).toEqual([]);
  });

  it('answers a refused search with 400 and an unavailable Typesense with 503, keeping the cause', async () => {
    const refused = httpError(400, 'Request failed with HTTP code 400 | Server said: Not an int32.');
    const engine = (err: Error) => new TypesenseEngine(config, fakeClient(err).client);
    await expect(engine(refused).search({ collection: 'Event' })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_search',
      cause: refused,
    });
    await expect(engine(httpError(404, 'Not Found')).search({ collection: 'Event' })).rejects.toMatchObject({
      status: 503,
      code: 'search_unavailable',
      message: expect.stringContaining('shop_Event'),
    });
    const down = new Error('connect ECONNREFUSED 127.0.0.1:8108');
    const failure = await engine(down)
      .search({ collection: 'Event' })
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({
      status: 503,
      code: 'search_unavailable',
      message: 'Search is unavailable',
      cause: down,
    });
  });
});

describe('TypesenseEngine.health', () => {
  it('is ok when Typesense says so', async () => {
    expect(await new TypesenseEngine(config, fakeClient(response(), { ok: true }).client).health()).toEqual({
      ok: true,
      detail: 'Typesense is healthy',
    });
  });

  it('is not ok when Typesense says it is not, or cannot be reached', async () => {
    expect((await new TypesenseEngine(config, fakeClient(response(), { ok: false }).client).health()).ok).toBe(false);
    const down = await new TypesenseEngine(
      config,
      fakeClient(response(), new Error('connect ECONNREFUSED')).client,
    ).health();
    expect(down).toEqual({ ok: false, detail: 'Typesense unreachable: connect ECONNREFUSED' });
  });

  it('builds a real client from the configuration without touching the network', () => {
    expect(new TypesenseEngine(config).kind).toBe('typesense');
  });
});
