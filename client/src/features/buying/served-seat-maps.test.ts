import { describe, expect, it } from 'vitest';
import { seatMapsNamed } from '../../app/page-data.js';
import { knownLayouts } from './served-seat-maps.js';

describe('the seat maps a rendered page names', () => {
  it('are each layout a listings answer gives, once, and nothing else', () => {
    const answers = [
      { data: { id: 'base' } },
      { data: { seatMap: { layout: 'ballpark' } } },
      { data: { seatMap: { layout: 'ballpark' } } },
      { data: { seatMap: { layout: 'no-such-layout' } } },
      { data: { seatMap: {} } },
      { data: null },
    ];
    expect(seatMapsNamed(answers)).toEqual(['ballpark', 'ballpark', 'no-such-layout']);
    expect(knownLayouts(seatMapsNamed(answers))).toEqual(['ballpark']);
  });
});
