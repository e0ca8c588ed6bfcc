import { describe, expect, it } from 'vitest';
import type { Filter, GeoFilter } from '../../shared/schemas/search.js';
import { compileDocumentTest, nearestMiles, readPath, ruleOf, withinRadius } from './filter-match.js';

const passes = (filter: Filter, doc: Record<string, unknown>) => compileDocumentTest(filter)(doc);

describe('compileDocumentTest', () => {
  it.each<[string, Filter, Record<string, unknown>, boolean]>([
    ['eq on an equal value', { op: 'eq', field: 'category', value: 'nba' }, { category: 'nba' }, true],
    ['eq on another value', { op: 'eq', field: 'category', value: 'nba' }, { category: 'nfl' }, false],
    ['eq on a number held as a string', { op: 'eq', field: 'n', value: 5 }, { n: '5' }, false],
    ['eq on a missing field', { op: 'eq', field: 'category', value: 'nba' }, {}, false],
    ['neq on another value', { op: 'neq', field: 'category', value: 'nba' }, { category: 'nfl' }, true],
    ['neq on an equal value', { op: 'neq', field: 'category', value: 'nba' }, { category: 'nba' }, false],
    ['neq on a missing field', { op: 'neq', field: 'category', value: 'nba' }, { category: null }, true],
    ['in naming one element of an array', { op: 'in', field: 'ids', values: [5, 99] }, { ids: [3, 5] }, true],
    ['in naming no element of an array', { op: 'in', field: 'ids', values: [7, 99] }, { ids: [3, 5] }, false],
    ['nin naming one element of an array', { op: 'nin', field: 'ids', values: [5] }, { ids: [3, 5] }, false],
    ['nin naming no element of an array', { op: 'nin', field: 'ids', values: [7] }, { ids: [3, 5] }, true],
    ['nin on an empty array', { op: 'nin', field: 'ids', values: [7] }, { ids: [] }, true],
    ['neq on an array holding the value', { op: 'neq', field: 'ids', value: 3 }, { ids: [3, 5] }, false],
    ['gt at its bound', { op: 'gt', field: 'n', value: 5 }, { n: 5 }, false],
    ['gte at its bound', { op: 'gte', field: 'n', value: 5 }, { n: 5 }, true],
    ['lt at its bound', { op: 'lt', field: 'n', value: 5 }, { n: 5 }, false],
    ['lte at its bound', { op: 'lte', field: 'n', value: 5 }, { n: 5 }, true],
    ['between at either end', { op: 'between', field: 'n', min: 5, max: 5 }, { n: 5 }, true],
    ['between outside', { op: 'between', field: 'n', min: 1, max: 4 }, { n: 5 }, false],
    ['a range on a missing number', { op: 'gte', field: 'n', value: 0 }, { n: null }, false],
    ['a range on a number held as a string', { op: 'gte', field: 'n', value: 0 }, { n: '7' }, false],
    ['a range on one element of an array', { op: 'gt', field: 'ns', value: 4 }, { ns: [1, 9] }, true],
    [
      'eq through an array of objects',
      { op: 'eq', field: 'venues.venue_id', value: 2 },
      { venues: [{ venue_id: 1 }, { venue_id: 2 }] },
      true,
    ],
    [
      'a range through an array of objects',
      { op: 'lte', field: 'venues.price', value: 10 },
      { venues: [{ price: 30 }, { price: 20 }] },
      false,
    ],
    [
      'neq through an array of objects',
      { op: 'neq', field: 'venues.venue_id', value: 2 },
      { venues: [{ venue_id: 1 }, { venue_id: 2 }] },
      false,
    ],
  ])('%s: %s', (_, filter, doc, expected) => {
    expect(passes(filter, doc)).toBe(expected);
  });
});

describe('ruleOf', () => {
  it('gives each range operator its interval, open where the operator is strict', () => {
    expect(ruleOf({ op: 'gt', field: 'n', value: 1 })).toEqual({
      kind: 'range',
      min: 1,
      max: Infinity,
      minOpen: true,
      maxOpen: false,
    });
    expect(ruleOf({ op: 'lt', field: 'n', value: 1 })).toMatchObject({ min: -Infinity, max: 1, maxOpen: true });
    expect(ruleOf({ op: 'between', field: 'n', min: 1, max: 2 })).toMatchObject({ minOpen: false, maxOpen: false });
    expect(ruleOf({ op: 'nin', field: 'n', values: [1, 2] })).toEqual({ kind: 'named', values: [1, 2], none: true });
  });
});

describe('readPath', () => {
  it('reads a top-level field, a nested object and each element of an array of objects', () => {
    const doc = { a: 1, o: { b: { c: 2 } }, list: [{ x: 1 }, { x: 2 }, null] };
    expect(readPath(doc, 'a')).toBe(1);
    expect(readPath(doc, 'o.b.c')).toBe(2);
    expect(readPath(doc, 'list.x')).toEqual([1, 2, undefined]);
    expect(readPath(doc, 'a.b')).toBeUndefined();
  });
});

describe('nearestMiles', () => {
  const geo: GeoFilter = { field: 'location', lat: 40.75, lng: -73.99, radiusMiles: 10 };

  it('measures one point, and the nearest of a list of points', () => {
    expect(nearestMiles({ location: [40.75, -73.99] }, geo)).toBe(0);
    const list = nearestMiles({ location: [[41.5, -73.99], [40.8, -73.99], 'not a point'] }, geo);
    expect(list).toBeGreaterThan(3);
    expect(list).toBeLessThan(4);
  });

  it('is Infinity for a document without points, or with none within the span of latitude', () => {
    expect(nearestMiles({}, geo)).toBe(Infinity);
    expect(nearestMiles({ location: [] }, geo)).toBe(Infinity);
    expect(nearestMiles({ location: [45, -73.99] }, geo)).toBe(Infinity);
    expect(nearestMiles({ nested: { location: [40.75, -73.99] } }, { ...geo, field: 'nested.location' })).toBe(
      Infinity,
    );
  });

  it('lets a document within the radius pass, its edge included', () => {
    const edge = nearestMiles({ location: [40.85, -73.99] }, geo);
    expect(withinRadius({ location: [40.85, -73.99] }, { ...geo, radiusMiles: edge })).toBe(true);
    expect(withinRadius({ location: [40.85, -73.99] }, { ...geo, radiusMiles: edge - 0.01 })).toBe(false);
  });
});
