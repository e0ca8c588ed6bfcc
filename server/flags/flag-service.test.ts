import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError, toErrorResponse } from '../http/errors.js';
import {
  checkVariationIndex,
  FlagService,
  forcedVariationsFromQuery,
  parseForcedVariations,
  type GuestAttributes,
} from './flag-service.js';
import { deviceTypeFromUserAgent } from '../../shared/rules/device-type.js';
import { FlagStore, StaticFlagSource, type FlagPayload } from './flags-file.js';

const guest = (id: string, extra: Partial<GuestAttributes> = {}): GuestAttributes => ({
  id,
  brand: 'base',
  deviceType: 'desktop',
  url: 'https://tickets.example/',
  ...extra,
});

let shipped: FlagPayload;
beforeAll(async () => {
  shipped = await new FlagStore(path.resolve('segments/flags.json')).load();
});
const service = () => new FlagService(new StaticFlagSource(shipped));

describe('FlagService.evaluate with the shipped flags', () => {
  it('gives the defaults: recent and trending searches on, the alternate suggester off', () => {
    const flags = service().evaluate(guest('g-1'));
    expect(flags.value('recent_trending_search', false)).toBe(true);
    expect(flags.value('isABSearch', true)).toBe(false);
    expect(['base', 'promos']).toContain(flags.value('home_layout', 'base'));
  });

  it('answers the fallback for an unknown feature or a value of another type', () => {
    const flags = service().evaluate(guest('g-1'));
    expect(flags.value('no_such_flag', 'x')).toBe('x');
    expect(flags.exposures).toEqual([]);
    expect(flags.value('home_layout', 42)).toBe(42);
  });

  it('keeps a guest in one variation, across evaluations and service instances', () => {
    for (const id of ['a', 'guest-17', 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6']) {
      const first = service().evaluate(guest(id)).value('home_layout', 'base');
      for (let i = 0; i < 5; i++) {
        expect(
          service()
            .evaluate(guest(id, { deviceType: 'mobile', url: `https://x/${i}` }))
            .value('home_layout', 'base'),
        ).toBe(first);
      }
    }
  });

  it('splits guests about 50/50 between base and promos (2,000 ids, within ±5%)', () => {
    const flags = service();
    const counts = { base: 0, promos: 0 } as Record<string, number>;
    for (let i = 0; i < 2_000; i++) {
      const value = flags.evaluate(guest(`guest-${i}`)).value('home_layout', 'none');
      counts[value] = (counts[value] ?? 0) + 1;
    }
    expect(Object.keys(counts).sort()).toEqual(['base', 'promos']);
    expect(counts.promos).toBeGreaterThanOrEqual(900);
    expect(counts.promos).toBeLessThanOrEqual(1_100);
  });

  it('lists each experiment the guest was put in once, with the variation key matching the value', () => {
    const flags = service().evaluate(guest('guest-42'));
    expect(flags.exposures).toEqual([]);
    const layout = flags.value('home_layout', 'base');
    flags.value('home_layout', 'base');
    flags.value('isABSearch', false);
    flags.value('recent_trending_search', false);
    expect(flags.exposures).toEqual([{ key: 'home-layout', variationId: layout === 'promos' ? '1' : '0' }]);
  });

  it('leaves a guest without an id out of the experiment', () => {
    const flags = service().evaluate(guest(''));
    expect(flags.value('home_layout', 'x')).toBe('base');
    expect(flags.exposures).toEqual([]);
  });

  it('lets forcing override the split and the zero coverage of isABSearch; forced variations are no exposure', () => {
    const svc = service();
    for (let i = 0; i < 50; i++) {
      expect(svc.evaluate(guest(`guest-${i}`), { 'home-layout': 1 }).value('home_layout', 'base')).toBe('promos');
      expect(svc.evaluate(guest(`guest-${i}`), { 'home-layout': 0 }).value('home_layout', 'base')).toBe('base');
    }
    const forced = svc.evaluate(guest('guest-1'), { 'ab-search': 1, 'home-layout': 1 });
    expect(forced.value('isABSearch', false)).toBe(true);
    expect(forced.value('home_layout', 'base')).toBe('promos');
    expect(forced.exposures).toEqual([]);
  });

  it('shares nothing between evaluations: forcing and exposures stay with their own request', () => {
    const svc = service();
    const id = Array.from({ length: 100 }, (_, i) => `guest-${i}`).find(
      (g) => svc.evaluate(guest(g)).value('home_layout', '') === 'base',
    )!;
    const forced = svc.evaluate(guest(id), { 'home-layout': 1 });
    const plain = svc.evaluate(guest(id));
    expect(forced.value('home_layout', '')).toBe('promos');
    expect(plain.value('home_layout', '')).toBe('base');
    expect(plain.exposures).toEqual([{ key: 'home-layout', variationId: '0' }]);
    expect(forced.exposures).toEqual([]);
  });

  it('refuses forcing an unknown experiment or a variation that does not exist, naming the experiment', () => {
    const svc = service();
    const fail = (forced: Record<string, number>) => {
      try {
        svc.evaluate(guest('g'), forced);
      } catch (err) {
        return toErrorResponse(err);
      }
      throw new Error('expected evaluate to throw');
    };
    expect(fail({ 'no-such': 0 })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', details: [{ path: 'no-such' }] } },
    });
    expect(fail({ 'no-such': 0 }).body.error.message).toBe(
      'no-such: no experiment "no-such" (experiments: ab-search, home-layout)',
    );
    expect(fail({ 'home-layout': 2 }).body.error.message).toBe(
      'home-layout: experiment "home-layout" has variations 0 to 1, not 2',
    );
  });

  it('evaluates the new flags after a change, without a restart', () => {
    const source = new StaticFlagSource(shipped);
    const svc = new FlagService(source);
    expect(svc.evaluate(guest('g')).value('isABSearch', true)).toBe(false);
    source.set({ ...shipped, features: { ...shipped.features, isABSearch: { defaultValue: true } } });
    expect(svc.evaluate(guest('g')).value('isABSearch', false)).toBe(true);
    expect(() => svc.evaluate(guest('g'), { 'ab-search': 1 })).toThrow(AppError);
  });

  it('targets rules on the attributes, e.g. a brand', () => {
    const svc = new FlagService(
      new StaticFlagSource({
        dateUpdated: '2026-01-01T00:00:00.000Z',
        features: {
          promo_bar: {
            defaultValue: false,
            rules: [{ condition: { brand: 'encore', deviceType: { $in: ['mobile', 'tablet'] } }, force: true }],
          },
        },
      }),
    );
    expect(svc.evaluate(guest('g', { brand: 'encore', deviceType: 'mobile' })).value('promo_bar', false)).toBe(true);
    expect(svc.evaluate(guest('g', { brand: 'encore', deviceType: 'desktop' })).value('promo_bar', false)).toBe(false);
    expect(svc.evaluate(guest('g', { brand: 'base', deviceType: 'mobile' })).value('promo_bar', false)).toBe(false);
  });

  it(
    "takes forcing only through `forced`: the URL attribute's query is read " +
      'by forcedVariations, not a second time by the SDK',
    () => {
      const svc = service();
      const id = Array.from({ length: 100 }, (_, i) => `guest-${i}`).find(
        (g) => svc.evaluate(guest(g)).value('home_layout', '') === 'base',
      )!;
      expect(svc.evaluate(guest(id, { url: 'https://tickets.example/?home-layout=1' })).value('home_layout', '')).toBe(
        'base',
      );
      expect(
        svc
          .evaluate(
            guest(id, { url: 'https://tickets.example/?home-layout=1' }),
            svc.forcedVariations({ 'home-layout': '1' }),
          )
          .value('home_layout', ''),
      ).toBe('promos');
    },
  );

  it('forces a variation for a request without a guest, as the SDK does before it looks for the hash attribute', () => {
    const svc = service();
    const anonymous = svc.evaluate(guest(''), { 'home-layout': 1 });
    expect(anonymous.value('home_layout', 'base')).toBe('promos');
    expect(anonymous.exposures).toEqual([]);
    const plain = svc.evaluate(guest(''));
    expect(plain.value('home_layout', 'base')).toBe('base');
    expect(plain.exposures).toEqual([]);
  });
});

describe('deviceTypeFromUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) ' +
        'AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 ' +
        'Safari/604.1',
      'mobile',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like ' +
        'Gecko) Chrome/124.0 Mobile Safari/537.36',
      'mobile',
    ],
    ['Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0', 'mobile'],
    [
      'Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1; Microsoft; Lumia 950) Mobile Safari/537.36 Edge/15.15063',
      'mobile',
    ],
    [
      'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 ' +
        '(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      'tablet',
    ],
    [
      'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
      'tablet',
    ],
    ['Mozilla/5.0 (Android 14; Tablet; rv:125.0) Gecko/125.0 Firefox/125.0', 'tablet'],
    [
      'Mozilla/5.0 (Linux; Android 9; KFTRWI) AppleWebKit/537.36 (KHTML, like ' +
        'Gecko) Silk/124.2 like Chrome/124.0 Safari/537.36',
      'tablet',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, ' +
        'like Gecko) Chrome/124.0 Safari/537.36 Edg/124.0',
      'desktop',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 ' +
        '(KHTML, like Gecko) Version/17.4 Safari/605.1.15',
      'desktop',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0', 'desktop'],
    ['curl/8.5.0', 'desktop'],
    ['', 'desktop'],
    [undefined, 'desktop'],
  ])('%s → %s', (ua, expected) => {
    expect(deviceTypeFromUserAgent(ua)).toBe(expected);
  });
});

describe('parseForcedVariations (gb_force)', () => {
  it('reads experimentKey:variationIndex pairs, and nothing when absent', () => {
    expect(parseForcedVariations(undefined)).toEqual({});
    expect(parseForcedVariations('home-layout:1')).toEqual({ 'home-layout': 1 });
    expect(parseForcedVariations('home-layout:0,ab-search:1,exp_2.b:10')).toEqual({
      'home-layout': 0,
      'ab-search': 1,
      'exp_2.b': 10,
    });
  });

  it.each([
    [''],
    ['home-layout'],
    ['home-layout:'],
    [':1'],
    ['home-layout:-1'],
    ['home-layout:01'],
    ['home-layout:1.5'],
    ['home-layout: 1'],
    ['home-layout:1,'],
    ['home-layout:1;ab-search:0'],
    ['home-layout:1,home-layout:0'],
    ['home-layout:99999999999999999999'],
    ['-x:1'],
    [['home-layout:1', 'ab-search:0']],
    [{ 'home-layout': '1' }],
  ])('refuses %j with a 400 naming gb_force', (query) => {
    let caught: unknown;
    try {
      parseForcedVariations(query);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    const { status, body } = toErrorResponse(caught);
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/^gb_force: /);
    expect(body.error.details).toEqual([{ path: 'gb_force', message: expect.any(String) }]);
  });

  it('cannot be used to reach an object prototype', () => {
    expect(() => parseForcedVariations('__proto__:1')).toThrow(AppError);
    const forced = parseForcedVariations('constructor:0,toString:1');
    expect(Object.getPrototypeOf(forced)).toBeNull();
    expect(forced).toEqual({ constructor: 0, toString: 1 });
    expect(() => parseForcedVariations('toString:1,toString:0')).toThrow('forced twice');
  });
});

describe("forcedVariationsFromQuery (GrowthBook's ?<experiment-key>=<index>, and gb_force)", () => {
  const experiments = new Map([
    ['home-layout', 2],
    ['ab-search', 2],
    ['three-way', 3],
  ]);
  const fail = (query: Record<string, unknown>) => {
    try {
      forcedVariationsFromQuery(query, experiments);
    } catch (err) {
      return toErrorResponse(err);
    }
    throw new Error('expected a 400');
  };

  it('reads each experiment key as a parameter, ignoring every other parameter', () => {
    expect(forcedVariationsFromQuery({}, experiments)).toEqual({});
    expect(
      forcedVariationsFromQuery(
        { 'home-layout': '1', lat: '41.88', utm_source: 'x', 'other-exp': '9', homelayout: 'abc' },
        experiments,
      ),
    ).toEqual({ 'home-layout': 1 });
    expect(forcedVariationsFromQuery({ 'home-layout': '0', 'three-way': '2' }, experiments)).toEqual({
      'home-layout': 0,
      'three-way': 2,
    });
  });

  it('takes gb_force as an alias for several at once, agreeing with the parameters', () => {
    expect(forcedVariationsFromQuery({ gb_force: 'home-layout:1,ab-search:0' }, experiments)).toEqual({
      'home-layout': 1,
      'ab-search': 0,
    });
    expect(
      forcedVariationsFromQuery({ gb_force: 'home-layout:1', 'home-layout': '1', 'ab-search': '1' }, experiments),
    ).toEqual({ 'home-layout': 1, 'ab-search': 1 });
    expect(fail({ gb_force: 'home-layout:1', 'home-layout': '0' }).body.error.message).toBe(
      'gb_force: experiment "home-layout" is forced to 1 here and to 0 by ?home-layout=',
    );
    expect(fail({ gb_force: 'no-such:0' }).body.error.message).toBe(
      'gb_force: no experiment "no-such" (experiments: home-layout, ab-search, three-way)',
    );
    expect(fail({ gb_force: 'three-way:3' }).body.error).toEqual({
      code: 'invalid_request',
      message: 'gb_force: experiment "three-way" has variations 0 to 2, not 3',
      details: [{ path: 'gb_force', message: 'experiment "three-way" has variations 0 to 2, not 3' }],
    });
  });

  it.each([
    ['2'],
    ['7'],
    ['-1'],
    ['1.0'],
    ['1.5'],
    [' 1'],
    ['1abc'],
    ['abc'],
    [''],
    ['99999999999999999999'],
    [['1', '0']],
    [['1', '1']],
    [{ a: '1' }],
  ])('refuses ?home-layout=%j with a 400 naming the experiment and its indexes', (value) => {
    const { status, body } = fail({ 'home-layout': value });
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.message).toMatch(/^home-layout: experiment "home-layout" has variations 0 to 1, not /);
    expect(body.error.details).toEqual([{ path: 'home-layout', message: expect.stringContaining('0 to 1') }]);
  });

  it('checks one index for an experiment, for other server code', () => {
    expect(checkVariationIndex(experiments, 'three-way', '2')).toBe(2);
    expect(checkVariationIndex(experiments, 'three-way', 0)).toBe(0);
    expect(() => checkVariationIndex(experiments, 'three-way', 3, 'variation')).toThrow(
      'variation: experiment "three-way" has variations 0 to 2, not 3',
    );
    expect(() => checkVariationIndex(experiments, 'nope', 0)).toThrow('no experiment "nope"');
    const svc = service();
    expect(svc.variationIndex('home-layout', '1')).toBe(1);
    expect(() => svc.variationIndex('home-layout', '2')).toThrow(AppError);
    expect([...svc.experiments()]).toEqual([
      ['ab-search', 2],
      ['home-layout', 2],
    ]);
  });

  it('cannot be used to reach an object prototype', () => {
    const forced = forcedVariationsFromQuery(
      Object.assign(Object.create(null) as Record<string, unknown>, { constructor: '1', __proto__: '1' }),
      experiments,
    );
    expect(Object.getPrototypeOf(forced)).toBeNull();
    expect(forced).toEqual({});
  });
});
