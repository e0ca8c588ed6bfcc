import { describe, expect, it } from 'vitest';
import { checkPlace, placeBody, zonedTime } from './preview-panel.js';

describe('a place typed in the preview', () => {
  it.each([
    ['zip', '60601', null],
    ['zip', '', null],
    ['zip', 'abc', 'A ZIP code is 5 digits, such as 60601.'],
    ['zip', '6060', 'A ZIP code is 5 digits, such as 60601.'],
    ['city', 'Chicago, IL', null],
    ['city', 'C', 'Name a city, such as Chicago, IL.'],
    ['coordinates', '41.88, -87.63', null],
    ['coordinates', 'hello', 'Give a latitude and a longitude separated by a comma, such as 41.88, -87.63.'],
    ['coordinates', '41.88,', 'Give a latitude and a longitude separated by a comma, such as 41.88, -87.63.'],
    ['coordinates', '999, 0', 'A latitude is between -90 and 90.'],
    ['coordinates', '0, 181', 'A longitude is between -180 and 180.'],
  ] as const)('%s %j → %j', (kind, value, problem) => {
    expect(checkPlace({ kind, value })).toBe(problem);
  });
});

describe('what a preview link is made for', () => {
  it.each([
    ['zip', '60601', { zip: '60601' }],
    ['city', ' Chicago, IL ', { city: 'Chicago, IL' }],
    ['coordinates', '41.88, -87.63', { lat: 41.88, lng: -87.63 }],
    ['zip', '', undefined],
    ['coordinates', '', undefined],
  ] as const)('a place by %s %j → %j', (kind, value, body) => {
    expect(placeBody({ kind, value })).toEqual(body);
  });

  it('takes a time typed without a zone in the browser’s own zone, and nothing for an empty field', () => {
    expect(zonedTime('')).toBeUndefined();
    expect(zonedTime('not a time')).toBeUndefined();
    expect(zonedTime('2026-12-04T09:00')).toBe(new Date(2026, 11, 4, 9, 0).toISOString());
  });
});
