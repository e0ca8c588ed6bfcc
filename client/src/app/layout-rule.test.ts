import { describe, expect, it } from 'vitest';
import { isBarePage } from './layout-rule.js';

describe('isBarePage (RULES 2.5 layout rule)', () => {
  it.each([
    ['/events/knicks-vs-celtics-100123', true],
    ['/tickets/knicks-vs-celtics-100123', true],
    ['/venue/x/tickets/123', true],
    ['/events/city/new-york', false],
    ['/events/state/ny', false],
    ['/events/category-in-city/nba/new-york', false],
    ['/events/category-in-state/nba/ny', false],
    ['/', false],
    ['/category/nfl', false],
    ['/performers/new-york-knicks-1020', false],
  ])('%s → %s', (path, bare) => {
    expect(isBarePage(path)).toBe(bare);
  });
});
