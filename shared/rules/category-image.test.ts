import { describe, expect, it, vi } from 'vitest';
import { CATEGORIES } from '../catalog/categories.js';
import { CATEGORY_IMAGE_CODES } from '../catalog/category-images.js';
import { categoryImageCode, categoryImageUrl } from './category-image.js';
import { CATEGORY_IMAGE_NOT_FOUND_MESSAGE } from './constants.js';

const code = (path: string) => CATEGORY_IMAGE_CODES.get(path)!;

describe('categoryImageCode (RULES 5.8 category-to-image map, lower-cased parent/child/grandchild)', () => {
  it.each<[string, [string, string?, string?], string]>([
    ['full path, any case', ['SPORTS', 'FOOTBALL', 'NFL'], 'sports/football/nfl'],
    ['parent/child', ['THEATRE', 'BROADWAY'], 'theatre/broadway'],
    ['parent only', ['CONCERTS'], 'concerts'],
    ['unknown grandchild falls back to parent/child', ['SPORTS', 'FOOTBALL', 'ARENA LEAGUE'], 'sports/football'],
    ['unknown child falls back to parent', ['SPORTS', 'CURLING', 'GRAND SLAM'], 'sports'],
    ['a grandchild without a child is not a path', ['SPORTS', '', 'NFL'], 'sports'],
    ['surrounding spaces do not matter', [' sports ', ' football ', ' nfl '], 'sports/football/nfl'],
  ])('%s', (_case, [parent, child, grandchild], path) => {
    expect(categoryImageCode(parent, child, grandchild)).toBe(code(path));
  });

  it('finds every category of the catalog at its own level', () => {
    for (const c of CATEGORIES) {
      expect(categoryImageCode(c.parent, c.child, c.grandchild)).toMatch(/^\d{2}-\d{3}-\d{3}$/);
    }
  });

  it("RULES 14.10: nothing matching gives null and logs 'not found' once per path", () => {
    const logger = { warn: vi.fn() };
    expect(categoryImageCode('PUPPETRY', 'MARIONETTES', '', logger)).toBeNull();
    expect(categoryImageCode('puppetry', 'marionettes', '', logger)).toBeNull();
    expect(categoryImageCode('PUPPETRY', 'SHADOW', '', logger)).toBeNull();
    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(logger.warn).toHaveBeenNthCalledWith(1, { path: 'puppetry/marionettes' }, CATEGORY_IMAGE_NOT_FOUND_MESSAGE);
    expect(logger.warn).toHaveBeenNthCalledWith(2, { path: 'puppetry/shadow' }, CATEGORY_IMAGE_NOT_FOUND_MESSAGE);
    expect(CATEGORY_IMAGE_NOT_FOUND_MESSAGE).toBe('not found');
  });

  it('a fallback hit is not a miss', () => {
    const logger = { warn: vi.fn() };
    categoryImageCode('SPORTS', 'FOOTBALL', 'ARENA LEAGUE 2', logger);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('an empty parent has no image', () => {
    const logger = { warn: vi.fn() };
    expect(categoryImageCode('', 'FOOTBALL', 'NFL', logger)).toBeNull();
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });
});

describe('categoryImageUrl', () => {
  it('points at the category artwork', () => {
    expect(categoryImageUrl('SPORTS', 'FOOTBALL', 'NFL')).toBe(`/media/categories/${code('sports/football/nfl')}.svg`);
  });

  it('is null, never a broken URL, when there is no image', () => {
    expect(categoryImageUrl('KNITTING')).toBeNull();
  });
});
