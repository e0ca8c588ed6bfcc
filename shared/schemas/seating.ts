/**
 * Seating layouts and what their seat maps are made of: the sections of a venue of that kind (their names, the
 * level they belong to and their outline) and what they face (field, court, stage…). Pure data and pure
 * functions, shared by the server (listings are generated from these sections, so every section sold is on the
 * map) and the client (which draws them). Outlines are SVG path data in the template's own coordinates.
 */

export const LAYOUT_NAMES = [
  'stadium',
  'ballpark',
  'stadium-concert',
  'arena-sports',
  'court',
  'arena-concert',
  'fight',
  'theater',
  'amphitheater',
  'club',
  'festival',
  'speedway',
  'grounds',
] as const;
export type LayoutName = (typeof LAYOUT_NAMES)[number];

/** What a venue's kind is called on the page. */
export const LAYOUT_LABELS: Readonly<Record<LayoutName, string>> = {
  stadium: 'Stadium',
  ballpark: 'Ballpark',
  'stadium-concert': 'Stadium, concert setup',
  'arena-sports': 'Arena',
  court: 'Arena, court setup',
  'arena-concert': 'Arena, concert setup',
  fight: 'Arena, ring setup',
  theater: 'Theater',
  amphitheater: 'Amphitheater',
  club: 'Club',
  festival: 'Festival grounds',
  speedway: 'Speedway',
  grounds: 'Golf course',
};

export interface SeatSection {
  /** Exactly the `section` of the listings sold in it. */
  name: string;
  /** The level or area it belongs to (its zone's name): deals are judged against the same level. */
  zone: string;
  /** Outline, SVG path data (one or more closed subpaths). */
  d: string;
  /** Where its label goes. */
  labelX: number;
  labelY: number;
  /** What is written on it: the number of a numbered section, else its name. */
  shortLabel: string;
  /** Big enough to carry its price under the label. */
  roomy: boolean;
  /** A label size smaller than the usual one, when only that fits (`seat-map-labels.ts`). */
  labelSize?: number;
  /** Degrees the label is turned (clockwise) to fit a narrow wedge, when only that fits. */
  labelAngle?: number;
}

export interface SeatFeature {
  kind: 'field' | 'stage' | 'court' | 'rink' | 'ring' | 'track' | 'green';
  label: string;
  d: string;
  labelX: number;
  labelY: number;
  /** Degrees the label is turned (clockwise) to fit, when only that fits (`seat-map-labels.ts`). */
  labelAngle?: number;
}

export interface SeatZone {
  /** Stable id used by the listing generator. */
  id: string;
  name: string;
  sections: readonly string[];
}

export interface SeatMapTemplate {
  layout: LayoutName;
  width: number;
  height: number;
  zones: readonly SeatZone[];
  sections: readonly SeatSection[];
  features: readonly SeatFeature[];
}
