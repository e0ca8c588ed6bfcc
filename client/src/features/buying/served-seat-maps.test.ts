import { describe, expect, it } from 'vitest';
import { seatMapLayouts } from './served-seat-maps.js';

describe('seatMapLayouts', () => {
  it('names each layout a listings answer gives once, and nothing else', () => {
    const answers = [
      { data: { id: 'base' } },
      { data: { seatMap: { layout: 'ballpark' } } },
      { data: { seatMap: { layout: 'ballpark' } } },
      { data: { seatMap: { layout: 'no-such-layout' } } },
      { data: null },
    ];
    expect(seatMapLayouts(answers)).toEqual(['ballpark']);
  });
});
