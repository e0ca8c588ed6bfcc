import type { CategoryDefinition } from '../../../shared/catalog/taxonomy.js';
import type { VenueKind } from '../data/types.js';
import type { LocalDateTime } from './zoned-time.js';

/** The schedule window: this many days from the catalog's first day. */
export const WINDOW_DAYS = 365;

/** A venue while the catalog is generated: its place, and the upcoming events and inventory counted so far. */
export interface VenueRec {
  id: number;
  name: string;
  kind: VenueKind;
  city: string;
  state: string;
  stateName: string;
  country: string;
  zip: string;
  lat: number;
  lng: number;
  timeZone: string;
  capacity: number;
  upcoming: number;
  inventory: number;
}

/** What a venue is before it is given an id and counts. */
export type VenueSpec = Omit<VenueRec, 'id' | 'upcoming' | 'inventory'>;

/** A performer while the catalog is generated, with the totals its document is written from. */
export interface PerformerRec {
  id: number;
  name: string;
  category: CategoryDefinition;
  popularity: number;
  home?: VenueRec;
  upcoming: number;
  tickets: number;
  groups: number;
  inventory: number;
  ordersD7: number;
  ordersT12: number;
  /** Per venue: its lowest price and the first upcoming start there (venue order on the performer card). */
  venues: Map<number, { venue: VenueRec; minPrice: number; first: number }>;
  lastStart: number;
}

/** One day of the schedule window: its date, its place in the window and its weekday (0 = Sunday). */
export interface DayInfo extends LocalDateTime {
  index: number;
  weekday: number;
}

/** Every performer of the catalog in id order; ids are handed out in the order performers are added. */
export class PerformerRoster {
  readonly all: PerformerRec[] = [];

  add(name: string, category: CategoryDefinition, popularity: number, home?: VenueRec): PerformerRec {
    const rec: PerformerRec = {
      id: 1001 + this.all.length,
      name,
      category,
      popularity,
      home,
      upcoming: 0,
      tickets: 0,
      groups: 0,
      inventory: 0,
      ordersD7: 0,
      ordersT12: 0,
      venues: new Map(),
      lastStart: 0,
    };
    this.all.push(rec);
    return rec;
  }
}
