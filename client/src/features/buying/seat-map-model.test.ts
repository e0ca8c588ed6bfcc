import { describe, expect, it } from 'vitest';
import { seatMapTemplate } from '../../../../shared/schemas/seat-maps.js';
import {
  bandOf,
  clampView,
  MAX_ZOOM,
  panBy,
  priceBands,
  summarizeSections,
  viewBoxOf,
  wholeMap,
  zoomBy,
} from './seat-map-model.js';
import { listing } from '../../test/buying-fixtures.js';

describe("priceBands: quantiles of the sections' lowest prices", () => {
  it('splits eight prices into four bands of two', () => {
    const bands = priceBands([80, 10, 20, 30, 40, 50, 60, 70]);
    expect(bands).toEqual([
      { from: 10, to: 20 },
      { from: 30, to: 40 },
      { from: 50, to: 60 },
      { from: 70, to: 80 },
    ]);
    expect([10, 25, 40, 41, 80].map((p) => bandOf(bands, p))).toEqual([0, 1, 1, 2, 3]);
  });

  it('keeps one price in one band, and makes fewer bands of fewer prices', () => {
    expect(priceBands([50, 50, 50, 50, 90])).toEqual([
      { from: 50, to: 50 },
      { from: 90, to: 90 },
    ]);
    expect(priceBands([42])).toEqual([{ from: 42, to: 42 }]);
    expect(priceBands([])).toEqual([]);
  });
});

describe('summarizeSections', () => {
  it('gives each section its lowest all-in price, count and marks; sections off the map come last', () => {
    const t = seatMapTemplate('ballpark');
    const sections = summarizeSections(
      [
        listing({ id: 1, section: 'Section 102', allInPricePerTicket: 90 }),
        listing({ id: 2, section: 'Section 101', allInPricePerTicket: 120, accessible: true }),
        listing({ id: 3, section: 'Section 101', allInPricePerTicket: 80, obstructedView: true }),
        listing({ id: 4, section: 'Dugout Box', allInPricePerTicket: 300 }),
      ],
      t,
    );
    expect(sections).toEqual([
      { name: 'Section 101', zone: 'Lower Level', lowest: 80, count: 2, accessible: true, obstructedView: true },
      { name: 'Section 102', zone: 'Lower Level', lowest: 90, count: 1, accessible: false, obstructedView: false },
      { name: 'Dugout Box', zone: null, lowest: 300, count: 1, accessible: false, obstructedView: false },
    ]);
  });
});

describe('zoom and pan', () => {
  const t = { width: 1000, height: 800 };
  it('zooms about the centre up to the limit and back out to the whole map', () => {
    let v = wholeMap(t);
    expect(viewBoxOf(v, t)).toBe('0 0 1000 800');
    v = zoomBy(v, 2, t);
    expect(viewBoxOf(v, t)).toBe('250 200 500 400');
    v = zoomBy(v, 100, t);
    expect(v.zoom).toBe(MAX_ZOOM);
    expect(zoomBy(v, 0.01, t)).toEqual(wholeMap(t));
  });

  it('pans by a share of what is shown, never off the map', () => {
    const v = zoomBy(wholeMap(t), 2, t);
    expect(viewBoxOf(panBy(v, 0.2, 0, t), t)).toBe('350 200 500 400');
    expect(viewBoxOf(panBy(v, -5, -5, t), t)).toBe('0 0 500 400');
    expect(panBy(wholeMap(t), 1, 1, t)).toEqual(wholeMap(t));
    expect(clampView({ zoom: 2, cx: 5000, cy: 5000 }, t)).toEqual({ zoom: 2, cx: 750, cy: 600 });
  });
});
