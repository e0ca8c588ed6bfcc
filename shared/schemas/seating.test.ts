import { describe, expect, it } from 'vitest';
import { LAYOUT_NAMES } from './seating.js';
import { numberedSections } from './seat-map-drawing.js';
import { seatMapTemplate, zoneOfSection, zoneSections } from './seat-maps.js';

/** Every coordinate of an SVG path made of M, L and Z commands. */
function points(d: string): [number, number][] {
  return d
    .split(/[MLZ]/)
    .filter((p) => p.trim() !== '')
    .map((p) => p.trim().split(/\s+/).map(Number) as [number, number]);
}

describe('seat map templates', () => {
  it.each(LAYOUT_NAMES)(
    '%s: sections named once each, every zone section drawn, every outline inside the map',
    (layout) => {
      const t = seatMapTemplate(layout);
      const names = t.sections.map((s) => s.name);
      expect(new Set(names).size).toBe(names.length);
      expect(t.zones.flatMap((z) => z.sections).sort()).toEqual([...names].sort());
      expect(t.features.length).toBeGreaterThan(0);
      for (const s of t.sections) {
        expect(zoneOfSection(layout, s.name)).toBe(s.zone);
        const pts = points(s.d);
        expect(pts.length).toBeGreaterThanOrEqual(3);
        for (const [x, y] of pts) {
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThanOrEqual(t.width);
          expect(y).toBeGreaterThanOrEqual(0);
          expect(y).toBeLessThanOrEqual(t.height);
        }
        expect(s.labelX).toBeGreaterThan(0);
        expect(s.labelY).toBeGreaterThan(0);
      }
    },
  );

  it('draws "Upper Level 301–350" of a stadium as 50 wedges, numbered in order round the bowl', () => {
    const upper = zoneSections('stadium', 'upper');
    expect(upper).toEqual(numberedSections('Upper Level ', 301, 350));
    const wedges = seatMapTemplate('stadium').sections.filter((s) => s.zone === 'Upper Level');
    expect(wedges).toHaveLength(50);
    expect(new Set(wedges.map((w) => w.d)).size).toBe(50);
    expect(wedges[0]!.shortLabel).toBe('301');
  });

  it('knows no zone or section that is not on the map', () => {
    expect(() => zoneSections('club', 'upper')).toThrow(/no zone upper/);
    expect(zoneOfSection('theater', 'Section 101')).toBeUndefined();
  });

  it('builds each template once', () => {
    expect(seatMapTemplate('theater')).toBe(seatMapTemplate('theater'));
  });
});
