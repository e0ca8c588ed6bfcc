import { describe, expect, it } from 'vitest';
import { imageSrcSet } from './images.js';

describe('imageSrcSet (RULES 13.6: widths 640 to 3840, quality 75)', () => {
  it('offers every width from 640 to 3840 at quality 75', () => {
    const candidates = imageSrcSet('/media/performers/1.svg').split(', ');
    expect(candidates[0]).toBe('/media/performers/1.svg?w=640&q=75 640w');
    expect(candidates.at(-1)).toBe('/media/performers/1.svg?w=3840&q=75 3840w');
    const widths = candidates.map((c) => Number(/ (\d+)w$/.exec(c)![1]));
    expect(widths).toEqual([...widths].sort((a, b) => a - b));
  });

  it('appends to an address that already has a query', () => {
    expect(imageSrcSet('/x.svg?v=2').split(', ')[0]).toBe('/x.svg?v=2&w=640&q=75 640w');
  });
});
