import { describe, expect, it, vi } from 'vitest';
import { ZIP_DETERMINATION_FAILURE_MESSAGE } from './constants.js';
import {
  DEFAULT_LOCATION,
  DEFAULT_TIME_ZONE,
  parsePlace,
  placeParams,
  placeText,
  resolveMarket,
  unlookedLocation,
  type MarketKeyType,
  type MarketLookup,
} from './location.js';

/** A lookup over a fixed table, recording what was asked. */
function table(entries: Record<string, string>) {
  const asked: string[] = [];
  const lookup: MarketLookup = async (key: string, keyType: MarketKeyType) => {
    asked.push(`${keyType}:${key}`);
    return entries[`${keyType}:${key}`] ?? null;
  };
  return { lookup, asked };
}

describe('resolveMarket (RULES 6.1 location resolution)', () => {
  it.each(['HI', 'AK', 'DE', 'RI', 'hi', ' ri '])('%j is its own market, without any lookup', async (state) => {
    const { lookup, asked } = table({ 'zip3:967': 'honolulu' });
    expect(await resolveMarket({ state, zip: '96701' }, lookup)).toBe(state.trim().toUpperCase());
    expect(asked).toEqual([]);
  });

  it.each<[string, { state?: string | null; zip?: string | null }, Record<string, string>, string, string[]]>([
    [
      '3-digit prefix first',
      { state: 'NY', zip: '10007' },
      { 'zip3:100': 'new-york', 'zip2:10': 'x', 'state:NY': 'y' },
      'new-york',
      ['zip3:100'],
    ],
    [
      'then the 2-digit prefix',
      { state: 'NJ', zip: '08540' },
      { 'zip2:08': 'philadelphia', 'state:NJ': 'y' },
      'philadelphia',
      ['zip3:085', 'zip2:08'],
    ],
    [
      'then the state',
      { state: 'nj', zip: '08540' },
      { 'state:NJ': 'new-york' },
      'new-york',
      ['zip3:085', 'zip2:08', 'state:NJ'],
    ],
    ['then national', { state: 'WY', zip: '82001' }, {}, 'national', ['zip3:820', 'zip2:82', 'state:WY']],
    [
      'ZIP+4 uses its first digits',
      { state: 'IL', zip: '60601-1234' },
      { 'zip3:606': 'chicago' },
      'chicago',
      ['zip3:606'],
    ],
    ['no ZIP: state only', { state: 'TX', zip: null }, { 'state:TX': 'dallas' }, 'dallas', ['state:TX']],
    ['a non-US postal code is not a ZIP', { state: 'ON', zip: 'M5V 2T6' }, {}, 'national', ['state:ON']],
    ['nothing known: national, without lookups', {}, {}, 'national', []],
  ])('%s', async (_case, input, entries, market, asked) => {
    const t = table(entries);
    expect(await resolveMarket(input, t.lookup)).toBe(market);
    expect(t.asked).toEqual(asked);
  });

  it('an empty answer counts as none', async () => {
    const { lookup } = table({ 'zip3:100': '', 'state:NY': 'new-york' });
    expect(await resolveMarket({ state: 'NY', zip: '10007' }, lookup)).toBe('new-york');
  });

  it("RULES 6.1, 14.9: a failing lookup is logged as a zip-determination failure and gives 'national'", async () => {
    const err = new Error('search down');
    const lookup: MarketLookup = vi.fn(async () => {
      throw err;
    });
    const logger = { error: vi.fn() };
    expect(await resolveMarket({ state: 'NY', zip: '10007' }, lookup, logger)).toBe('national');
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(logger.error).toHaveBeenCalledWith({ err, state: 'NY', zip: '10007' }, ZIP_DETERMINATION_FAILURE_MESSAGE);
    expect(ZIP_DETERMINATION_FAILURE_MESSAGE).toBe('Zip-determination failure');
  });

  it('a lookup that throws synchronously is handled the same way, with no logger given', async () => {
    const lookup = (() => {
      throw new Error('bad');
    }) as unknown as MarketLookup;
    await expect(resolveMarket({ state: 'CA', zip: '90012' }, lookup)).resolves.toBe('national');
  });
});

describe('DEFAULT_LOCATION (RULES 6.3: New York, NY, US, postal 10007)', () => {
  it('is Lower Manhattan, by City Hall', () => {
    expect(DEFAULT_LOCATION).toMatchObject({ city: 'New York', state: 'NY', country: 'US', postalCode: '10007' });
    expect(DEFAULT_LOCATION.lat).toBeCloseTo(40.714, 2);
    expect(DEFAULT_LOCATION.lng).toBeCloseTo(-74.008, 2);
    expect(Object.isFrozen(DEFAULT_LOCATION)).toBe(true);
  });
});

describe('a place the shopper chose', () => {
  it('is read from its text as a ZIP code or coordinates on the globe, and nothing else', () => {
    expect(parsePlace('10001')).toEqual({ zip: '10001' });
    expect(parsePlace('41.88,-87.63')).toEqual({ lat: 41.88, lng: -87.63 });
    expect(parsePlace('-90,180')).toEqual({ lat: -90, lng: 180 });
    for (const bad of ['1000', '100011', '91,0', '0,181', '41.88;-87.63', 'abc', '', null, undefined])
      expect(parsePlace(bad), String(bad)).toBeNull();
  });

  it('is written as text it reads back, coordinates to two decimals', () => {
    expect(placeText({ zip: '60601' })).toBe('60601');
    expect(placeText({ lat: 41.8781, lng: -87.6298 })).toBe('41.88,-87.63');
    expect(parsePlace(placeText({ lat: 41.8781, lng: -87.6298 }))).toEqual({ lat: 41.88, lng: -87.63 });
  });

  it('is sent to the layout API as its own parameters, coordinates to two decimals', () => {
    expect(placeParams(null)).toEqual([]);
    expect(placeParams({ zip: '60601' })).toEqual([['zip', '60601']]);
    expect(placeParams({ lat: 41.8781, lng: -87.6298 })).toEqual([
      ['lat', '41.88'],
      ['lng', '-87.63'],
    ]);
  });
});

describe('a location nothing could be looked up for', () => {
  it("is the shopper's own coordinates without a city, else New York with the ZIP they gave", () => {
    expect(unlookedLocation({ lat: 41.9, lng: -87.6 })).toEqual({
      lat: 41.9,
      lng: -87.6,
      city: '',
      state: '',
      country: '',
      source: 'coordinates',
      timeZone: DEFAULT_TIME_ZONE,
    });
    expect(unlookedLocation({ zip: '99999' })).toMatchObject({
      city: DEFAULT_LOCATION.city,
      source: 'default',
      zip: '99999',
      timeZone: DEFAULT_TIME_ZONE,
    });
    expect(unlookedLocation({})).not.toHaveProperty('zip');
  });
});
