import type { SeatFeature, SeatSection } from './seating.js';

/**
 * Seat map labels that fit their shapes. The labels are SVG text in the map's own units; the stylesheet
 * (`client/src/features/buying/buying.css`) sets their sizes, named here once. A label's width is estimated from
 * its characters (a semi-bold sans serif: capitals about 0.72 em, small letters 0.6 em, figures 0.56 em) and its
 * box must lie inside its shape. A label that does not fit where it was drawn is moved to the nearest point of its
 * shape where it does, then shortened with the abbreviations below, then set smaller; a roomy section that cannot
 * carry its price under its label carries the label alone.
 */

/** Font sizes of the map's text, in map units (`.seat-map__label`, `--roomy`, `--small`, `--tiny`, features). */
export const LABEL_SIZES = { roomy: 15, label: 10, small: 8.5, tiny: 7, feature: 16 } as const;
/** The smaller label sizes a section may be set in, largest first. */
const SMALLER = [LABEL_SIZES.small, LABEL_SIZES.tiny] as const;
/** The widest price a roomy section carries under its label (`formatMoney`). */
const WIDEST_PRICE = '$1,234.50';
/** The second line's offset (`dy="1.2em"` in the seat map). */
const LINE = 1.2;
/** Room kept between a label and its outline, in map units. */
const MARGIN = 0.5;

/** Documented abbreviations, applied word by word only to a label that does not fit whole. */
export const LABEL_ABBREVIATIONS: Readonly<Record<string, string>> = {
  Section: 'Sec',
  Level: 'Lvl',
  Lower: 'Lwr',
  Upper: 'Upr',
  Mezzanine: 'Mezz',
  Orchestra: 'Orch',
  Balcony: 'Balc',
  Center: 'Ctr',
  Right: 'R',
  Left: 'L',
  Front: 'Fr',
  Rear: 'Rr',
  Grandstand: 'Grand',
  Grandstands: 'Grands',
  Admission: 'Adm',
  General: 'Gen',
  Pavilion: 'Pav',
  Clubhouse: 'Club',
};

/** The label with every abbreviable word abbreviated. */
export function abbreviate(label: string): string {
  return label
    .split(' ')
    .map((w) => LABEL_ABBREVIATIONS[w] ?? w)
    .join(' ');
}

/** Estimated width of a text in map units at `size`. */
export function textWidth(text: string, size: number): number {
  let em = 0;
  for (const ch of text) {
    if (/[A-Z]/.test(ch)) em += ch === 'I' ? 0.34 : ch === 'M' || ch === 'W' ? 0.9 : 0.72;
    else if (/[a-z]/.test(ch)) em += 'ijlft'.includes(ch) ? 0.34 : ch === 'm' || ch === 'w' ? 0.9 : 0.6;
    else if (/[0-9$]/.test(ch)) em += 0.56;
    else if (ch === ' ' || ch === ',' || ch === '.' || ch === '/') em += 0.3;
    else em += 1;
  }
  return em * size;
}

type Pt = readonly [number, number];

/** The closed subpaths of a path made of `M`, `L` and `Z` (as the seat map's are). */
export function polygonsOf(d: string): Pt[][] {
  return d
    .split('M')
    .filter((part) => part.trim() !== '')
    .map((part) =>
      part
        .replace(/Z/g, '')
        .split('L')
        .map((p) => p.trim().split(/\s+/).map(Number) as unknown as Pt),
    );
}

/** Even-odd: inside when inside an odd number of the subpaths (a hole is a subpath inside another). */
function inside(polygons: readonly Pt[][], x: number, y: number): boolean {
  let odd = false;
  for (const poly of polygons) {
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const [xi, yi] = poly[i]!;
      const [xj, yj] = poly[j]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) odd = !odd;
    }
  }
  return odd;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Whether a box lies inside the shape: its outline inside, and no corner of the shape within it. */
export function boxInside(polygons: readonly Pt[][], box: Box): boolean {
  const { x, y, width, height } = box;
  const steps = Math.max(2, Math.ceil(Math.max(width, height) / 2));
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    const points: Pt[] = [
      [x + width * t, y],
      [x + width * t, y + height],
      [x, y + height * t],
      [x + width, y + height * t],
    ];
    if (!points.every(([px, py]) => inside(polygons, px, py))) return false;
  }
  return polygons.every((poly) => poly.every(([px, py]) => !(px > x && px < x + width && py > y && py < y + height)));
}

/** The boxes of a label centred at (x, y): its line, and the price line under it for a roomy section. */
export function labelBoxes(text: string, size: number, x: number, y: number, withPrice: boolean): Box[] {
  const line = (t: string, cy: number): Box => {
    const width = textWidth(t, size) + 2 * MARGIN;
    const height = size + 2 * MARGIN;
    return { x: x - width / 2, y: cy - height / 2, width, height };
  };
  return withPrice ? [line(text, y), line(WIDEST_PRICE, y + LINE * size)] : [line(text, y)];
}

/** Where in the shape the label fits: at (x, y), else (with `search`) the nearest point where it does. */
function placeLabel(
  polygons: readonly Pt[][],
  text: string,
  size: number,
  x: number,
  y: number,
  withPrice: boolean,
  search: boolean,
): Pt | undefined {
  const fits = (px: number, py: number) =>
    labelBoxes(text, size, px, py, withPrice).every((b) => boxInside(polygons, b));
  if (fits(x, y)) return [x, y];
  if (!search) return undefined;
  const xs = polygons.flat().map((p) => p[0]);
  const ys = polygons.flat().map((p) => p[1]);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  // Points of the shape on a grid fine enough for its thinnest rings, nearest first.
  const step = Math.min(8, Math.max(2, Math.min(maxX - minX, maxY - minY) / 40));
  const candidates: { p: Pt; d: number }[] = [];
  for (let py = minY; py <= maxY; py += step)
    for (let px = minX; px <= maxX; px += step)
      if (inside(polygons, px, py)) candidates.push({ p: [px, py], d: (px - x) ** 2 + (py - y) ** 2 });
  candidates.sort((a, b) => a.d - b.d);
  const found = candidates.find(({ p }) => fits(p[0], p[1]));
  return found && [Math.round(found.p[0] * 10) / 10, Math.round(found.p[1] * 10) / 10];
}

/** The shape turned by `-deg` degrees around (x, y): a label turned by `deg` is checked upright in it. */
function turned(polygons: readonly Pt[][], x: number, y: number, deg: number): Pt[][] {
  if (deg === 0) return polygons as Pt[][];
  const a = (-deg * Math.PI) / 180;
  const [c, s] = [Math.cos(a), Math.sin(a)];
  return polygons.map((poly) =>
    poly.map(([px, py]): Pt => [x + (px - x) * c - (py - y) * s, y + (px - x) * s + (py - y) * c]),
  );
}

/** Turns a label may take to fit a narrow wedge, smallest first, never upside down. */
const ANGLES = [15, -15, 30, -30, 45, -45, 60, -60, 75, -75, 90];

/**
 * The section as drawn with a label that fits: roomy with its price when that fits (the two lines centred on its
 * label point if need be), else its label (whole, then abbreviated) upright in the label size, then in the
 * smaller size, then turned along a narrow wedge, then in the smallest size, and only then moved within its
 * shape. `labelSize` is set only when smaller than the label size, `labelAngle` only when turned. A section
 * too small for any is left unlabelled (its name is in its title and in the list beside the map).
 */
export function fitSectionLabel(section: SeatSection): SeatSection {
  const polygons = polygonsOf(section.d);
  const { labelX: x, labelY: y } = section;
  const texts = [...new Set([section.shortLabel, abbreviate(section.shortLabel)])];
  if (section.roomy) {
    for (const dy of [0, (-LINE * LABEL_SIZES.roomy) / 2]) {
      const at = placeLabel(polygons, section.shortLabel, LABEL_SIZES.roomy, x, y + dy, true, false);
      if (at) return { ...section, labelY: Math.round(at[1] * 10) / 10 };
    }
  }
  const labelled = (text: string, size: number, at: Pt, angle = 0): SeatSection => ({
    ...section,
    shortLabel: text,
    roomy: false,
    labelX: at[0],
    labelY: at[1],
    ...(size === LABEL_SIZES.label ? {} : { labelSize: size }),
    ...(angle === 0 ? {} : { labelAngle: angle }),
  });
  const upright = (sizes: readonly number[], search: boolean) => {
    for (const size of sizes)
      for (const text of texts) {
        const at = placeLabel(polygons, text, size, x, y, false, search);
        if (at) return labelled(text, size, at);
      }
    return undefined;
  };
  const turnedLabel = (size: number) => {
    for (const text of texts)
      for (const angle of ANGLES)
        if (placeLabel(turned(polygons, x, y, angle), text, size, x, y, false, false))
          return labelled(text, size, [x, y], angle);
    return undefined;
  };
  return (
    upright([LABEL_SIZES.label, LABEL_SIZES.small], false) ??
    turnedLabel(LABEL_SIZES.label) ??
    turnedLabel(LABEL_SIZES.small) ??
    upright([LABEL_SIZES.tiny], false) ??
    turnedLabel(LABEL_SIZES.tiny) ??
    upright([LABEL_SIZES.label, ...SMALLER], true) ?? { ...section, shortLabel: '', roomy: false }
  );
}

/**
 * A feature's label (the field, the stage) where it fits in its shape: upright, else turned (a tall, narrow stage
 * reads along its length), else shortened, else moved within the shape.
 */
export function fitFeatureLabel(f: SeatFeature): SeatFeature {
  const polygons = polygonsOf(f.d);
  const { labelX: x, labelY: y } = f;
  const texts = [...new Set([f.label, abbreviate(f.label)])];
  for (const text of texts) {
    if (placeLabel(polygons, text, LABEL_SIZES.feature, x, y, false, false)) return { ...f, label: text };
    for (const angle of ANGLES)
      if (placeLabel(turned(polygons, x, y, angle), text, LABEL_SIZES.feature, x, y, false, false))
        return { ...f, label: text, labelAngle: angle };
  }
  for (const text of texts) {
    const at = placeLabel(polygons, text, LABEL_SIZES.feature, x, y, false, true);
    if (at) return { ...f, label: text, labelX: at[0], labelY: at[1] };
  }
  return f;
}
