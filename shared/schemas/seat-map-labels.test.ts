import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LAYOUT_NAMES, type SeatSection } from './seating.js';
import { seatMapTemplate } from './seat-maps.js';
import { SEAT_MAP_BUILDERS } from './seat-map-layouts.js';
import type { Builder } from './seat-map-drawing.js';
import {
  abbreviate,
  boxInside,
  fitSectionLabel,
  LABEL_SIZES,
  labelBoxes,
  polygonsOf,
  textWidth,
} from './seat-map-labels.js';

/** The shape as the label's turn sees it: turned back about the label's point. */
function shapeFor(s: Pick<SeatSection, 'd' | 'labelX' | 'labelY' | 'labelAngle'>) {
  const polygons = polygonsOf(s.d);
  if (!s.labelAngle) return polygons;
  const a = (-s.labelAngle * Math.PI) / 180;
  return polygons.map((poly) =>
    poly.map(([px, py]) => {
      const [dx, dy] = [px - s.labelX, py - s.labelY];
      return [s.labelX + dx * Math.cos(a) - dy * Math.sin(a), s.labelY + dx * Math.sin(a) + dy * Math.cos(a)] as const;
    }),
  );
}

const sizeOf = (s: SeatSection) => (s.roomy ? LABEL_SIZES.roomy : (s.labelSize ?? LABEL_SIZES.label));

describe('seat map labels fit their shapes', () => {
  it.each(LAYOUT_NAMES)('every section label of the %s map lies inside its section', (layout) => {
    const template = seatMapTemplate(layout);
    for (const s of template.sections) {
      // Every section is labelled: none is so small that its label was dropped.
      expect(s.shortLabel, s.name).not.toBe('');
      const boxes = labelBoxes(s.shortLabel, sizeOf(s), s.labelX, s.labelY, s.roomy);
      for (const box of boxes) expect(boxInside(shapeFor(s), box), `${layout}: ${s.name}`).toBe(true);
      // Never turned upside down.
      expect(Math.abs(s.labelAngle ?? 0)).toBeLessThanOrEqual(90);
    }
  });

  it.each(LAYOUT_NAMES)('every feature label of the %s map lies inside its feature', (layout) => {
    for (const f of seatMapTemplate(layout).features) {
      const [box] = labelBoxes(f.label, LABEL_SIZES.feature, f.labelX, f.labelY, false);
      expect(boxInside(shapeFor({ ...f, d: f.d }), box!), `${layout}: ${f.label}`).toBe(true);
    }
  });

  it('writes the arena ring "Club Level" whole, turned along its ring, where it was clipped to "lub Lev"', () => {
    const b: Builder = { zones: [], sections: [], features: [] };
    SEAT_MAP_BUILDERS['arena-sports'](b);
    const drawn = b.sections.find((s) => s.name === 'Club Level')!;
    // As drawn, the upright label overflows its ring.
    const [upright] = labelBoxes(drawn.shortLabel, LABEL_SIZES.label, drawn.labelX, drawn.labelY, false);
    expect(boxInside(polygonsOf(drawn.d), upright!)).toBe(false);
    const fitted = seatMapTemplate('arena-sports').sections.find((s) => s.name === 'Club Level')!;
    expect(fitted.shortLabel).toBe('Club Level');
    expect(fitted.labelAngle).toBeDefined();
  });

  it('abbreviates with the documented words only when the whole label does not fit', () => {
    expect(abbreviate('Lower Level Club')).toBe('Lwr Lvl Club');
    expect(abbreviate('Orchestra Center')).toBe('Orch Ctr');
    const square = 'M0 0L40 0L40 20L0 20Z';
    const section = (shortLabel: string): SeatSection => ({
      name: shortLabel,
      zone: 'Z',
      d: square,
      labelX: 20,
      labelY: 10,
      shortLabel,
      roomy: false,
    });
    expect(fitSectionLabel(section('Pit')).shortLabel).toBe('Pit');
    // "Mezzanine" is too wide for a 40-unit box at the label size; "Mezz" is not.
    expect(textWidth('Mezzanine', LABEL_SIZES.label)).toBeGreaterThan(40);
    expect(fitSectionLabel(section('Mezzanine'))).toMatchObject({ shortLabel: 'Mezz' });
  });

  it('names the sizes the stylesheet sets', () => {
    const css = readFileSync(new URL('../../client/src/features/buying/buying.css', import.meta.url), 'utf8');
    const size = (selector: string) =>
      Number(new RegExp(`${selector.replace(/[.-]/g, '\\$&')} \\{[^}]*font-size: ([\\d.]+)px`).exec(css)?.[1]);
    expect(size('.seat-map__label--roomy')).toBe(LABEL_SIZES.roomy);
    expect(size('.seat-map__label--small')).toBe(LABEL_SIZES.small);
    expect(size('.seat-map__label--tiny')).toBe(LABEL_SIZES.tiny);
    expect(size('.seat-map__feature text')).toBe(LABEL_SIZES.feature);
    expect(/\.seat-map__marks \{\s*font-size: 10px/.test(css)).toBe(true);
  });
});
