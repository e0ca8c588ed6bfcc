import { describe, expect, it } from 'vitest';
import { callPath, callQueryKey, listingsParams, queryText, type ApiCall } from './api-calls.js';

describe('a typed call', () => {
  it.each<[ApiCall, string, readonly unknown[]]>([
    [{ call: 'brand' }, '/api/brand', ['brand']],
    [{ call: 'menu' }, '/api/menu', ['menu']],
    [
      { call: 'layout', page: 'home', place: null, pageParams: [] },
      '/api/layout/home',
      ['layout', '/api/layout/home', '', ''],
    ],
    [
      {
        call: 'layout',
        page: 'home',
        place: { zip: '60601' },
        pageParams: [
          ['home-layout', '1'],
          ['utm', 'a b'],
        ],
      },
      '/api/layout/home?zip=60601&home-layout=1&utm=a+b',
      ['layout', '/api/layout/home', 'zip=60601', 'home-layout=1&utm=a+b'],
    ],
    [
      { call: 'layout', page: 'category', slug: 'nfl', place: { lat: 41.8781, lng: -87.6298 }, pageParams: [] },
      '/api/layout/category/nfl?lat=41.88&lng=-87.63',
      ['layout', '/api/layout/category/nfl', 'lat=41.88&lng=-87.63', ''],
    ],
    [{ call: 'event', slug: 'mets-42' }, '/api/events/mets-42', ['events', 'mets-42']],
    [{ call: 'listings', slug: 'mets-42', filter: {} }, '/api/events/mets-42/listings', ['listings', 'mets-42', {}]],
    [
      { call: 'listings', slug: 'mets-42', filter: { maxPrice: 90, sort: 'section', quantity: 4 } },
      '/api/events/mets-42/listings?quantity=4&sort=section&maxPrice=90',
      ['listings', 'mets-42', { maxPrice: 90, sort: 'section', quantity: 4 }],
    ],
    [{ call: 'performer', slug: 'mets-1', page: 1 }, '/api/performers/mets-1', ['performers', 'mets-1', 1]],
    [{ call: 'venue', slug: 'msg-1', page: 3 }, '/api/venues/msg-1?page=3', ['venues', 'msg-1', 3]],
    [
      { call: 'results', q: 'taylor swift & co', page: 2 },
      '/api/Searches/get?q=taylor%20swift%20%26%20co&page=2',
      ['results', 'taylor swift & co', 2],
    ],
  ])('%j is fetched at its address, under its cache key', (call, path, key) => {
    expect(callPath(call)).toBe(path);
    expect(callQueryKey(call)).toEqual(key);
  });

  it('escapes what a slug carries, so it stays one segment of the address', () => {
    expect(callPath({ call: 'event', slug: 'a/b?c' })).toBe('/api/events/a%2Fb%3Fc');
    expect(callPath({ call: 'layout', page: 'category', slug: 'x/y', place: null, pageParams: [] })).toBe(
      '/api/layout/category/x%2Fy',
    );
  });

  it('sends only the listings filters that are set, and the query of nothing is empty', () => {
    expect(listingsParams({ quantity: undefined, minPrice: 0 })).toEqual([['minPrice', '0']]);
    // RULES 10.15: accessible seating only is sent as 1, and left out when off.
    expect(listingsParams({ quantity: 2, accessible: true })).toEqual([
      ['quantity', '2'],
      ['accessible', '1'],
    ]);
    expect(listingsParams({ accessible: false })).toEqual([]);
    expect(queryText([])).toBe('');
  });
});
