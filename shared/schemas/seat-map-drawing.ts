import type { SeatFeature, SeatSection, SeatZone } from './seating.js';

/** What a seat map template is drawn with: geometry, and the zones, sections and features it adds up. */

const r1 = (n: number) => Math.round(n * 10) / 10;
export type Pt = readonly [number, number];
export const pathOf = (pts: readonly Pt[]) => `M${pts.map(([x, y]) => `${r1(x)} ${r1(y)}`).join('L')}Z`;
export const rectPath = (x: number, y: number, w: number, h: number) =>
  pathOf([
    [x, y],
    [x + w, y],
    [x + w, y + h],
    [x, y + h],
  ]);

/** A point at `deg` degrees (0 up, clockwise) and radius `r` around a centre, stretched `sx` across. */
export function polar(cx: number, cy: number, r: number, deg: number, sx: number): Pt {
  const a = (deg * Math.PI) / 180;
  return [cx + r * Math.sin(a) * sx, cy - r * Math.cos(a)];
}

export interface Ring {
  cx: number;
  cy: number;
  inner: number;
  outer: number;
  /** Degrees, 0 up, clockwise; `to` > `from`. */
  from: number;
  to: number;
  sx?: number;
}

/** One annular sector of a ring, drawn as polylines fine enough to read as arcs. */
export function wedge(ring: Ring, a0: number, a1: number): { d: string; labelX: number; labelY: number } {
  const sx = ring.sx ?? 1;
  const steps = Math.max(2, Math.ceil((a1 - a0) / 3));
  const outer: Pt[] = [];
  const inner: Pt[] = [];
  for (let i = 0; i <= steps; i++) {
    const a = a0 + ((a1 - a0) * i) / steps;
    outer.push(polar(ring.cx, ring.cy, ring.outer, a, sx));
    inner.push(polar(ring.cx, ring.cy, ring.inner, a, sx));
  }
  const [labelX, labelY] = polar(ring.cx, ring.cy, (ring.inner + ring.outer) / 2, (a0 + a1) / 2, sx);
  return { d: pathOf([...outer, ...inner.reverse()]), labelX: r1(labelX), labelY: r1(labelY) };
}

/** Numbered sections `prefix from`…`prefix to`. */
export function numberedSections(prefix: string, from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${from + i}`);
}

const shortLabelOf = (name: string) => /\d+$/.exec(name)?.[0] ?? name;

/** A seat map as it is being drawn. */
export interface Builder {
  zones: SeatZone[];
  sections: SeatSection[];
  features: SeatFeature[];
}

export function zone(b: Builder, id: string, name: string, sections: readonly string[]): void {
  b.zones.push({ id, name, sections });
}

/** Sections laid side by side around a ring, in order. */
export function ringSections(b: Builder, zoneName: string, sections: readonly string[], ring: Ring): void {
  const step = (ring.to - ring.from) / sections.length;
  sections.forEach((s, i) => {
    const w = wedge(ring, ring.from + i * step, ring.from + (i + 1) * step);
    b.sections.push({ name: s, zone: zoneName, ...w, shortLabel: shortLabelOf(s), roomy: false });
  });
}

/** A zone whose sections go side by side around one ring. */
export function ringZone(b: Builder, id: string, name: string, sections: readonly string[], ring: Ring): void {
  zone(b, id, name, sections);
  ringSections(b, name, sections, ring);
}

export function shapeSection(
  b: Builder,
  zoneName: string,
  name: string,
  d: string,
  labelX: number,
  labelY: number,
  roomy = true,
  shortLabel = shortLabelOf(name),
): void {
  b.sections.push({ name, zone: zoneName, d, labelX, labelY, shortLabel, roomy });
}

export function rectSection(
  b: Builder,
  zoneName: string,
  name: string,
  x: number,
  y: number,
  w: number,
  h: number,
  roomy = true,
): void {
  shapeSection(b, zoneName, name, rectPath(x, y, w, h), r1(x + w / 2), r1(y + h / 2), roomy);
}

export function feature(
  b: Builder,
  kind: SeatFeature['kind'],
  label: string,
  d: string,
  labelX: number,
  labelY: number,
): void {
  b.features.push({ kind, label, d, labelX, labelY });
}

export const rectFeature = (
  b: Builder,
  kind: SeatFeature['kind'],
  label: string,
  x: number,
  y: number,
  w: number,
  h: number,
) => feature(b, kind, label, rectPath(x, y, w, h), x + w / 2, y + h / 2);
