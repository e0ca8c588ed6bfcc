import fc from 'fast-check';

/**
 * Random and hostile values, and the public GET endpoints to put them in: shared by the property battery
 * (`server/http/property-battery.test.ts`) and the benchmark's hostile burst against the real server
 * (`bench/size-run.ts`).
 */
export const hostile = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 120 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom(
    '',
    ' ',
    '*',
    '%',
    '%zz',
    '../..',
    '\\',
    '`',
    "'",
    '"',
    '<x>',
    '&&',
    '||',
    ':=',
    '[',
    '-1',
    '1e400',
    'NaN',
    '__proto__',
    'constructor',
    'a'.repeat(5000),
  ),
);

export const GET_TEMPLATES: ((v: string) => string)[] = [
  (v) => `/api/suggest?q=${v}`,
  (v) => `/api/suggest?q=a&extra=${v}`,
  (v) => `/api/Searches/get?q=${v}&page=${v}`,
  (v) => `/api/trending?x=${v}`,
  (v) => `/api/performers/${v}`,
  (v) => `/api/venues/${v}`,
  (v) => `/api/events/${v}`,
  (v) => `/api/events/${v}/listings?quantity=${v}&sort=${v}&minPrice=${v}`,
  (v) => `/api/listings/${v}`,
  (v) => `/api/layout/home?lat=${v}&lng=${v}&zip=${v}&brand=${v}&gb_force=${v}`,
  (v) => `/api/layout/category/${v}`,
  (v) => `/api/menu?${v}=${v}`,
  (v) => `/api/brand?brand=${v}`,
  (v) => `/api/orders/${v}?code=${v}`,
  (v) => `/api/orders/${v}/tickets.pdf?code=${v}`,
  (v) => `/api/cart/${v}`,
  (v) => `/api/features/${v}`,
  (v) => `/api/suggest/jsonp?token=${v}&q=${v}&callback=${v}`,
  (v) => `/media/performers/${v}`,
  (v) => `/media/categories/${v}`,
];

/** `count` hostile GET paths, the same ones for the same seed. */
export function hostilePaths(count: number, seed = 1): string[] {
  return fc
    .sample(fc.tuple(fc.constantFrom(...GET_TEMPLATES), hostile), { numRuns: count, seed })
    .map(([template, value]) => template(encodeURIComponent(value)));
}
