import { describe, expect, it } from 'vitest';
import { headingInto } from './menu-aim.js';

// A bar of triggers 0–48 px high, and a panel under it from x 0 to 1200.
const panel = { left: 0, right: 1200, top: 48 };

describe('headingInto (menu aim)', () => {
  it.each([
    ['down and to the right, toward the panel', { x: 100, y: 20 }, { x: 160, y: 40 }, true],
    ['straight down', { x: 100, y: 20 }, { x: 100, y: 44 }, true],
    ['down and to the left', { x: 400, y: 10 }, { x: 300, y: 40 }, true],
    ['sideways along the bar', { x: 100, y: 24 }, { x: 300, y: 24 }, false],
    ['up, away from the panel', { x: 100, y: 40 }, { x: 140, y: 10 }, false],
    ['not at all', { x: 100, y: 20 }, { x: 100, y: 20 }, false],
    ['almost flat along the bar, too shallow to reach the panel', { x: 100, y: 20 }, { x: 900, y: 22 }, false],
    ['from below the panel top', { x: 100, y: 60 }, { x: 140, y: 80 }, false],
  ])('%s', (_what, from, to, expected) => {
    expect(headingInto(from, to, panel)).toBe(expected);
  });

  it('does not count a move that ends beside a narrow panel', () => {
    const narrow = { left: 0, right: 300, top: 48 };
    expect(headingInto({ x: 100, y: 20 }, { x: 600, y: 40 }, narrow)).toBe(false);
    expect(headingInto({ x: 100, y: 20 }, { x: 150, y: 40 }, narrow)).toBe(true);
  });
});
