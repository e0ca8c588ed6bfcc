import { describe, expect, it } from 'vitest';
import { imageSrcSet } from './images.js';

describe('imageSrcSet (RULES 13.6: widths 640 to 3840, quality 75)', () => {
  it('offers every width from 640 to 3840 at quality 75', () => {
    const candidates = imageSrcSet('/media/performers/1.jpg')!.split(', ');
    expect(candidates[0]).toBe('/media/performers/1.jpg?w=640&q=75 640w');
    expect(candidates.at(-1)).toBe('/media/performers/1.jpg?w=3840&q=75 3840w');
    const widths = candidates.map((c) => Number(/ (\d+)w$/.exec(c)![1]));
    expect(widths).toEqual([...widths].sort((a, b) => a - b));
  });

  it('appends to an address that already has a query', () => {
    expect(imageSrcSet('/x.png?v=2')!.split(', ')[0]).toBe('/x.png?v=2&w=640&q=75 640w');
  });

  it('offers none for a vector image, the same file at every width', () => {
    expect(imageSrcSet('/media/performers/1.svg')).toBeUndefined();
    expect(imageSrcSet('/media/categories/01-002-003.SVG?v=2')).toBeUndefined();
    expect(imageSrcSet('/media/svg/1.png')).toMatch(/ 640w, /);
  });
});
