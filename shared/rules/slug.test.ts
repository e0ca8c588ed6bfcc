import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entitySlug, idFromSlug, joinSlugParts, slugify } from './slug.js';

describe('entitySlug (RULES 2.2: lower-cased name and id joined by hyphens)', () => {
  it.each([
    ['Dallas Cowboys', 1001, 'dallas-cowboys-1001'],
    ['Beyoncé', 7, 'beyonce-7'],
    ["Guns N' Roses", 12, 'guns-n-roses-12'],
    ['Simon & Garfunkel', 3, 'simon-and-garfunkel-3'],
    ['  The   Lion King  ', 44, 'the-lion-king-44'],
    ['AC/DC', 5, 'ac-dc-5'],
    ['Cirque du Soleil: KÀ', 9, 'cirque-du-soleil-ka-9'],
    ['!!!', 8, '8'],
  ])('%s + %i → %s', (name, id, slug) => {
    expect(entitySlug(name, id)).toBe(slug);
  });

  it('always yields a path-safe segment that gives back its id', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 2 ** 40 }), (name, id) => {
        const slug = entitySlug(name, id);
        expect(slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
        expect(encodeURIComponent(slug)).toBe(slug);
        expect(idFromSlug(slug)).toBe(id);
        expect(entitySlug(name, id)).toBe(slug);
      }),
    );
  });
});

describe('joinSlugParts (RULES 2.3 second helper)', () => {
  it('removes the first period and turns the first colon into a hyphen, per part', () => {
    expect(joinSlugParts('St. Louis Blues', 'Game 1: Round 2')).toBe('st-louis-blues-game-1-round-2');
    expect(joinSlugParts('Mr. & Mrs. Smith')).toBe('mr-and-mrs-smith');
    expect(joinSlugParts('A.B.C', 'x:y:z')).toBe('ab-c-x-y-z');
  });

  it('skips parts that leave nothing', () => {
    expect(joinSlugParts('.', 'Hello')).toBe('hello');
  });
});

describe('slugify', () => {
  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(slugify(slugify(s))).toBe(slugify(s));
      }),
    );
  });
});

describe('idFromSlug', () => {
  it('reads the trailing id, even after a name that ends in digits', () => {
    expect(idFromSlug('blink-182-5')).toBe(5);
    expect(idFromSlug('42')).toBe(42);
  });

  it('is null when the slug does not end in an id', () => {
    expect(idFromSlug('taylor-swift')).toBeNull();
    expect(idFromSlug('')).toBeNull();
  });
});
