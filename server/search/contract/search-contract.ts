import { beforeAll, describe, expect, it } from 'vitest';
import type { CollectionName } from '../../../shared/schemas/documents.js';
import type { SearchRequest } from '../../../shared/schemas/search.js';
import type { CatalogCollections } from '../../catalog/load-catalog.js';
import { haversineMiles } from '../embedded/geo.js';
import type { SearchEngine, SearchRequestFor } from '../search-engine.js';
import { contractCatalog, MSG } from './fixtures.js';

/**
 * The behaviour every search engine owes the storefront (RULES 7.17, and 7.18: Typesense's documented defaults).
 * Each engine's test file calls this with a way to build the engine over the fixture catalog.
 */
export function describeSearchContract(name: string, build: (catalog: CatalogCollections) => Promise<SearchEngine>) {
  describe(`search contract: ${name}`, () => {
    let engine: SearchEngine;
    beforeAll(async () => {
      engine = await build(contractCatalog());
    });

    const names = async <C extends CollectionName>(request: SearchRequest & { collection: C }, field: string) => {
      const result = await engine.search(request as SearchRequestFor<C>);
      return result.hits.map((h) => (h.document as Record<string, unknown>)[field]);
    };
    const performers = (q: string, extra: Partial<SearchRequest> = {}) =>
      names({ collection: 'Performer', q, queryBy: ['performer_name'], perPage: 50, ...extra }, 'performer_name');

    it('matches everything with *', async () => {
      const all = await engine.search({ collection: 'Performer', q: '*', perPage: 0 });
      expect(all.found).toBe(13);
      expect(all.hits).toEqual([]);
    });

    it('needs every query word to match', async () => {
      expect(await performers('dallas cowboys')).toEqual(['Dallas Cowboys']);
      expect(await performers('dallas lakers')).toEqual([]);
    });

    it('matches a prefix on the last word only', async () => {
      expect(await performers('dallas cow')).toEqual(['Dallas Cowboys']);
      expect((await performers('dal')).sort()).toEqual(['Dallas Cowboys', 'Dallas Mavericks']);
      expect(await performers('dal cowboys')).toEqual([]);
    });

    it('tries typos only when the exact query finds nothing', async () => {
      expect(await performers('kings')).toEqual(['Los Angeles Kings']);
      expect(await performers('cowbys')).toEqual(['Dallas Cowboys']);
    });

    it('allows 1 typo from 4 characters and 2 from 7', async () => {
      expect(await performers('hezt')).toEqual(['Miami Heat']);
      expect(await performers('hzzt')).toEqual([]);
      expect(await performers('jzz')).toEqual([]);
      expect(await performers('yonkeas')).toEqual(['New York Yankees']);
      expect(await performers('hzzts')).toEqual([]);
    });

    it('ranks exact word matches before prefix matches', async () => {
      const hits = await performers('nets', {
        sort: [
          { by: '_text_match', order: 'desc' },
          { by: 'order_rank', order: 'asc' },
        ],
      });
      expect(hits).toEqual(['Brooklyn Nets', 'Netsky Live']);
    });

    it('ignores case, accents and apostrophes', async () => {
      expect(await performers('BEYONCE')).toEqual(['Beyoncé Tribute']);
      expect(await performers('guns n roses')).toEqual(["Guns N' Roses Experience"]);
    });

    it('weighs earlier query fields more', async () => {
      const hits = await names(
        { collection: 'Event', q: 'garden', queryBy: ['event_name', 'venue_name'] },
        'event_name',
      );
      expect(hits).toEqual(['Garden Party Live', 'Knicks Fan Night']);
      const flipped = await names(
        { collection: 'Event', q: 'garden', queryBy: ['venue_name', 'event_name'] },
        'event_name',
      );
      expect(flipped).toEqual(['Knicks Fan Night', 'Garden Party Live']);
    });

    it('applies every filter operator, arrays matching on any element', async () => {
      const ev = (filters: SearchRequest['filters']) =>
        names({ collection: 'Event', filters, sort: [{ by: 'event_id', order: 'asc' }], perPage: 50 }, 'event_name');
      expect(await ev([{ op: 'eq', field: 'category', value: 'nba' }])).toEqual([
        'Miami Heat at Brooklyn Nets',
        'Knicks Fan Night',
      ]);
      expect(await ev([{ op: 'neq', field: 'category', value: 'nba' }])).toEqual([
        'Garden Party Live',
        'Postponed Show',
      ]);
      expect(await ev([{ op: 'in', field: 'performer_ids', values: [5, 99] }])).toEqual([
        'Miami Heat at Brooklyn Nets',
      ]);
      expect(await ev([{ op: 'in', field: 'performer_ids', values: [3, 5] }])).toEqual(['Miami Heat at Brooklyn Nets']);
      expect(await ev([{ op: 'nin', field: 'performer_ids', values: [5] }])).toHaveLength(3);
      expect(await ev([{ op: 'gt', field: 'min_ticket_price', value: 80 }])).toEqual(['Knicks Fan Night']);
      expect(await ev([{ op: 'gte', field: 'min_ticket_price', value: 80 }])).toEqual([
        'Miami Heat at Brooklyn Nets',
        'Knicks Fan Night',
      ]);
      expect(await ev([{ op: 'lt', field: 'min_ticket_price', value: 50 }])).toEqual(['Garden Party Live']);
      expect(await ev([{ op: 'lte', field: 'min_ticket_price', value: 50 }])).toEqual([
        'Garden Party Live',
        'Postponed Show',
      ]);
      expect(await ev([{ op: 'between', field: 'min_ticket_price', min: 35, max: 80 }])).toHaveLength(3);
      expect(
        await ev([
          { op: 'eq', field: 'category', value: 'nba' },
          { op: 'gt', field: 'event_orders_t12', value: 100 },
        ]),
      ).toEqual(['Knicks Fan Night']);
    });

    it('leaves out documents with no value for a numeric filter', async () => {
      const hits = await names(
        { collection: 'Event', filters: [{ op: 'gt', field: 'event_timestamp', value: 0 }], perPage: 50 },
        'event_name',
      );
      expect(hits).not.toContain('Postponed Show');
    });

    it('keeps a geo radius inclusive and reports distances in miles', async () => {
      const newark = haversineMiles(MSG[0], MSG[1], 40.7335, -74.1711);
      const result = await engine.search({
        collection: 'Venue',
        geo: { field: 'venue_location', lat: MSG[0], lng: MSG[1], radiusMiles: newark + 0.01 },
        sort: [{ by: '_geo_distance', order: 'asc' }],
      });
      expect(result.hits.map((h) => h.document.venue_name)).toEqual([
        'Madison Square Garden',
        'Barclays Center',
        'Prudential Center',
      ]);
      expect(result.hits[2]!.geoDistanceMiles).toBeCloseTo(newark, 0);
      const fifty = await engine.search({
        collection: 'Venue',
        geo: { field: 'venue_location', lat: MSG[0], lng: MSG[1], radiusMiles: 50 },
        perPage: 0,
      });
      expect(fifty.found).toBe(3);
      const wide = await engine.search({
        collection: 'Venue',
        geo: { field: 'venue_location', lat: MSG[0], lng: MSG[1], radiusMiles: 200 },
        perPage: 0,
      });
      expect(wide.found).toBe(5);
    });

    it('matches a list of points when any of them is in range', async () => {
      const hits = await names(
        { collection: 'Performer', geo: { field: 'venue_locations', lat: MSG[0], lng: MSG[1], radiusMiles: 50 } },
        'performer_name',
      );
      expect(hits).toEqual(['Touring Act']);
    });

    it('sorts by up to three keys with relevance as the last tie-break', async () => {
      const hits = await names(
        {
          collection: 'Venue',
          sort: [
            { by: 'venue_state_province_short', order: 'asc' },
            { by: 'events_available', order: 'desc' },
          ],
          perPage: 50,
        },
        'venue_name',
      );
      expect(hits).toEqual([
        'Crypto.com Arena',
        'Madison Square Garden',
        'Barclays Center',
        'Prudential Center',
        'Lincoln Financial Field',
        'Garden State Hall',
      ]);
      const tie = await performers('dallas', { sort: [{ by: 'category', order: 'desc' }] });
      expect(tie).toEqual(['Dallas Cowboys', 'Dallas Mavericks']);
    });

    it('paginates from page 1 and counts everything found', async () => {
      const request = {
        collection: 'Performer' as const,
        sort: [{ by: 'order_rank', order: 'asc' as const }],
        perPage: 5,
      };
      const one = await engine.search({ ...request, page: 1 });
      const three = await engine.search({ ...request, page: 3 });
      expect(one.found).toBe(13);
      expect(one.hits.map((h) => h.document.order_rank)).toEqual([1, 3, 5, 9, 20]);
      expect(three.hits).toHaveLength(3);
      expect(three.page).toBe(3);
      const past = await engine.search({ ...request, page: 9 });
      expect(past.hits).toEqual([]);
      expect(past.found).toBe(13);
    });

    it('returns only the fields asked for', async () => {
      const result = await engine.search({
        collection: 'Performer',
        q: 'heat',
        queryBy: ['performer_name'],
        includeFields: ['performer_name', 'order_rank'],
      });
      expect(result.hits[0]!.document).toEqual({ performer_name: 'Miami Heat', order_rank: 20 });
    });

    it('weights the city suggestion 5:1 over the state name and orders by population', async () => {
      const hits = await names(
        {
          collection: 'USCity',
          q: 'new',
          queryBy: ['city', 'state_name'],
          queryByWeights: [5, 1],
          sort: [
            { by: '_text_match', order: 'desc' },
            { by: 'population', order: 'desc' },
          ],
          perPage: 3,
        },
        'city',
      );
      expect(hits[0]).toBe('New York');
      expect(hits).toContain('New Orleans');
    });

    it('refuses a malformed request instead of guessing', async () => {
      await expect(engine.search({ collection: 'Performer', q: 'x' } as SearchRequestFor<'Performer'>)).rejects.toThrow(
        /queryBy/,
      );
      await expect(engine.search({ collection: 'Performer', perPage: 251 })).rejects.toThrow();
      await expect(engine.search({ collection: 'Performer', page: 0 })).rejects.toThrow();
      await expect(
        engine.search({ collection: 'Performer', sort: [{ by: '_geo_distance', order: 'asc' }] }),
      ).rejects.toThrow(/geo/);
    });
  });
}
