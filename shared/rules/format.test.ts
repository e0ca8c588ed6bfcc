import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PRICE_FORMAT_FAILURE_MESSAGE } from './constants.js';
import { formatCount, formatPrice, isSubmitKey, normalizeSearchQuery, readQueryParam, shouldSearch } from './format.js';

describe('formatPrice (RULES 3.6: numeric prices get thousands separators, others come back unchanged)', () => {
  it.each<[number | string, string]>([
    [0, '0'],
    [5, '5'],
    [999, '999'],
    [1000, '1,000'],
    [1234, '1,234'],
    [1234.5, '1,234.50'],
    [1234.56, '1,234.56'],
    [1234.567, '1,234.57'],
    [1234.001, '1,234'],
    [0.5, '0.50'],
    [1_234_567.8, '1,234,567.80'],
    [-1234.5, '-1,234.50'],
    [-0.001, '0'],
    ['1234', '1,234'],
    ['1234.5', '1,234.50'],
    [' 89.00 ', '89'],
    ['.5', '0.50'],
    ['1000000', '1,000,000'],
  ])('%j → %s', (value, text) => {
    expect(formatPrice(value)).toBe(text);
  });

  it.each<unknown>([
    '',
    'abc',
    '$12.50',
    '1,234',
    '12abc',
    '0x10',
    '1e3',
    'Infinity',
    NaN,
    Infinity,
    null,
    undefined,
    { value: 1 },
  ])('non-numeric %j comes back unchanged', (value) => {
    expect(formatPrice(value)).toBe(value);
  });

  describe('RULES 14.11: a formatting failure is logged and the input returned', () => {
    afterEach(() => vi.restoreAllMocks());

    it('logs "something went wrong formatting price in checkout"', () => {
      // `format` is an accessor on the prototype, which the DOM typings describe as a method.
      const proto = Intl.NumberFormat.prototype as unknown as { format: unknown };
      vi.spyOn(proto, 'format', 'get').mockImplementation(() => {
        throw new Error('boom');
      });
      const logger = { error: vi.fn() };
      expect(formatPrice(1234, logger)).toBe(1234);
      expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ value: 1234 }), PRICE_FORMAT_FAILURE_MESSAGE);
      expect(PRICE_FORMAT_FAILURE_MESSAGE).toBe('something went wrong formatting price in checkout');
    });
  });

  it('keeps the value: stripping separators gives the amount back to the cent', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (c) => {
        const amount = c / 100;
        const text = formatPrice(amount) as string;
        expect(text).toMatch(/^-?\d{1,3}(,\d{3})*(\.\d{2})?$/);
        expect(Number(text.replace(/,/g, ''))).toBe(amount);
        expect(formatPrice(String(amount))).toBe(text);
      }),
    );
  });

  it('never throws and returns any non-numeric string as it was', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const out = formatPrice(text);
        if (!/^\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*$/.test(text)) expect(out).toBe(text);
      }),
    );
  });
});

describe('formatCount', () => {
  it.each<[number, string]>([
    [0, '0 people'],
    [1, '1 person'],
    [2, '2 people'],
    [12_000, '12,000 people'],
  ])('%i → %s', (n, text) => {
    expect(formatCount(n, 'person', 'people')).toBe(text);
  });
});

describe('readQueryParam (RULES 2.8: absent gives an empty string; plus signs decode as spaces)', () => {
  it.each<[string, string, string]>([
    ['?kwds=taylor+swift', 'kwds', 'taylor swift'],
    ['kwds=taylor+swift', 'kwds', 'taylor swift'],
    ['?kwds=AC%2FDC', 'kwds', 'AC/DC'],
    ['?kwds=a%2Bb', 'kwds', 'a+b'],
    ['?kwds=beyonc%C3%A9', 'kwds', 'beyoncé'],
    ['?page=2', 'kwds', ''],
    ['', 'kwds', ''],
    ['?kwds=', 'kwds', ''],
    ['?kwds', 'kwds', ''],
    ['?kwds=first&kwds=second', 'kwds', 'first'],
    ['?kwds=100%', 'kwds', '100%'],
    ['?kwds=%E0%A4%A', 'kwds', '\uFFFD%A'],
    ['?kwds=%zz+x', 'kwds', '%zz x'],
    ['/results-general?kwds=knicks&page=2#top', 'kwds', 'knicks'],
    ['https://shop.example/results-general?kwds=knicks', 'kwds', 'knicks'],
    ['kwds=what?+really', 'kwds', 'what? really'],
    ['?q=%3D%26', 'q', '=&'],
  ])('%s, %s → %j', (search, name, value) => {
    expect(readQueryParam(search, name)).toBe(value);
  });

  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), (search, name) => {
        expect(typeof readQueryParam(search, name)).toBe('string');
      }),
    );
  });
});

describe('search query (RULES 7.4: lower-cased; 7.6: sent only when its length is greater than 0)', () => {
  it.each<[string, string, boolean]>([
    ['Taylor Swift', 'taylor swift', true],
    ['  KNICKS ', 'knicks', true],
    ['a', 'a', true],
    ['', '', false],
    ['   ', '', false],
  ])('%j → %j, searched: %s', (q, normal, searched) => {
    expect(normalizeSearchQuery(q)).toBe(normal);
    expect(shouldSearch(q)).toBe(searched);
  });
});

describe('isSubmitKey (RULES 7.7: Enter, numpad Enter or keycode 13)', () => {
  it.each<[object, boolean]>([
    [{ key: 'Enter' }, true],
    [{ key: 'Enter', code: 'NumpadEnter' }, true],
    [{ code: 'NumpadEnter' }, true],
    [{ code: 'Enter' }, true],
    [{ keyCode: 13 }, true],
    [{ key: 'Unidentified', keyCode: 13 }, true],
    [{ key: 'a', code: 'KeyA', keyCode: 65 }, false],
    [{ key: 'Tab' }, false],
    [{}, false],
    [{ key: 'Enter', keyCode: 229, isComposing: true }, false],
  ])('%j → %s', (event, submits) => {
    expect(isSubmitKey(event)).toBe(submits);
  });
});
