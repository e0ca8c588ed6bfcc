import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventPath, performerPath } from '../rules/site-paths.js';
import { packTables, unpackTables } from './page-data-tables.js';

/** What the page carries and what the client reads back from it, as JSON text. */
const through = (value: unknown) => JSON.stringify(packTables(value));
const back = (value: unknown) => JSON.stringify(unpackTables(JSON.parse(through(value))));

const card = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  badges: [],
  url: eventPath(name, id),
  ...extra,
});

describe('the page data written as tables', () => {
  it('reads back any JSON exactly: the same keys in the same order, the same values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(back(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 500 },
    );
  });

  it('reads back lists of objects that share keys, lack some, or order them their own way', () => {
    const key = fc.constantFrom('id', 'name', 'url', 'badges', '~', '~t', '__proto__', 'a');
    const value = fc.oneof(
      fc.string(),
      fc.constantFrom('~', '~~', '~t', '~a', '/events/x-1'),
      fc.integer(),
      fc.boolean(),
      // JSON leaves these members out: the table must too.
      fc.constant(undefined),
      fc.constant(() => 1),
    );
    const object = fc.dictionary(key, value, { maxKeys: 6 });
    fc.assert(
      fc.property(fc.array(object, { minLength: 2, maxLength: 8 }), (list) => {
        expect(back({ list })).toBe(JSON.stringify({ list }));
      }),
      { numRuns: 500 },
    );
  });

  it("derives each entity's address from its name and id when every one in the list is its own page", () => {
    const names = fc.string({ minLength: 0, maxLength: 20 });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(1e9), names), { minLength: 2, maxLength: 6 }), (pairs) => {
        const list = pairs.map(([id, name]) => ({ id, name, url: performerPath(name, id), minPrice: 1 }));
        expect(back(list)).toBe(JSON.stringify(list));
      }),
    );
    const cards = [card(7, 'Beyoncé & Jay-Z'), card(8, "Guns N' Roses", { minPrice: 20 }), card(9, '')];
    const packed = through(cards);
    expect(packed).not.toContain('/events/beyonce');
    expect(packed).toContain('"~a"');
    expect(back(cards)).toBe(JSON.stringify(cards));
  });

  it("derives an address from each entity's own name and id, whatever they hold", () => {
    // Ids and names that would run together if written one after the other: each list's addresses come back.
    const first = [
      { id: 'a b', name: 'c', url: '/x/c-a b' },
      { id: 'd', name: 'e', url: '/x/e-d' },
    ];
    const second = [
      { id: 'a', name: 'b c', url: '/x/c-a b' },
      { id: 'd', name: 'e', url: '/x/e-d' },
    ];
    expect(back(first)).toBe(JSON.stringify(first));
    expect(back(second)).toBe(JSON.stringify(second));
  });

  it('keeps each address as written when one of them is not its own page', () => {
    const cards = [card(1, 'One'), { ...card(2, 'Two'), url: '/events/elsewhere-2' }];
    expect(through(cards)).toContain('/events/elsewhere-2');
    expect(through(cards)).toContain('/events/one-1');
    expect(back(cards)).toBe(JSON.stringify(cards));
    // Two kinds of page in one list: no one prefix.
    const mixed = [card(1, 'One'), { ...card(2, 'Two'), url: performerPath('Two', 2) }];
    expect(back(mixed)).toBe(JSON.stringify(mixed));
  });

  it('names the keys once, and writes less than the JSON', () => {
    const cards = Array.from({ length: 10 }, (_, i) =>
      card(i + 1, `Event ${i + 1}`, { address: 'Venue', minPrice: i }),
    );
    const packed = through(cards);
    expect(packed.match(/"address"/g)).toHaveLength(1);
    expect(packed.length).toBeLessThan(JSON.stringify(cards).length * 0.6);
    // Too little to gain: written as it is.
    expect(through([{ a: 1 }, { b: 2 }])).toBe('[{"a":1},{"b":2}]');
  });

  it('leaves out what JSON leaves out, as JSON does', () => {
    const list = [
      { a: 1, b: undefined, c: 'x' },
      { a: 2, c: 'y', d: () => 1 },
    ];
    expect(back(list)).toBe(JSON.stringify(list));
    expect(back([undefined, 1])).toBe(JSON.stringify([undefined, 1]));
  });

  it('derives addresses only from names every browser slugs alike, and ids JSON writes as they are', () => {
    // Latin-1 and the quotes the slug drops: derived.
    expect(through([card(1, 'Björk'), card(2, 'Guns N’ Roses')])).toContain('"~a"');
    // A letter from U+0100 on may decompose otherwise in an older browser: the addresses stay.
    for (const name of ['Ōzora', 'Beyoncé\u{1CCD6}', 'Zoë Ōno']) {
      const cards = [card(1, name), card(2, 'Two')];
      expect(through(cards), name).not.toContain('"~a"');
      expect(back(cards)).toBe(JSON.stringify(cards));
    }
    // JSON writes NaN as null, which would make another slug.
    const odd = [NaN, Infinity].map((id, i) => ({ id, name: `n${i}`, url: `/e/n${i}-${id}` }));
    expect(back(odd)).toBe(JSON.stringify(odd));
  });

  it('reads back what JSON makes of holes and of values with a toJSON', () => {
    // eslint-disable-next-line no-sparse-arrays
    const holes = [{ a: 1 }, , { a: 2 }, { a: 3 }];
    expect(back(holes)).toBe(JSON.stringify(holes));
    const marked = { toJSON: () => '~x' };
    const listed = { toJSON: () => [{ a: 1, b: '~' }, { a: 2 }] };
    const keyed = { toJSON: (key: string) => ({ key }) };
    const value = { when: new Date(0), marked, listed, list: [keyed, keyed, marked], keyed };
    expect(back(value)).toBe(JSON.stringify(value));
    expect(back([new Date(0), new Date(1)])).toBe(JSON.stringify([new Date(0), new Date(1)]));
  });

  it('writes a list as a table only when that is shorter', () => {
    const key = fc.constantFrom('a', 'bb', 'c', 'e', 'id', 'name');
    const object = fc.dictionary(key, fc.oneof(fc.integer(), fc.constantFrom('x', 'yy')), { maxKeys: 6 });
    fc.assert(
      fc.property(fc.array(object, { minLength: 2, maxLength: 6 }), (list) => {
        expect(through(list).length).toBeLessThanOrEqual(JSON.stringify(list).length);
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses a mark where none can be', () => {
    expect(() => unpackTables({ name: '~t' })).toThrow(/mark/);
    expect(() => unpackTables(['~t', 'keys'])).toThrow(/keys/);
    expect(() => unpackTables(['~t', ['a'], 'row'])).toThrow(/row/);
    expect(unpackTables({ name: '~~t' })).toEqual({ name: '~t' });
  });
});
