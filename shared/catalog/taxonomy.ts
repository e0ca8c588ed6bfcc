import type { TopCategory } from '../schemas/documents.js';

/** The kinds of venue the catalog knows; each category is played at some of them. */
export type VenueKind =
  | 'stadium'
  | 'arena'
  | 'theater'
  | 'club'
  | 'amphitheater'
  | 'concert-hall'
  | 'opera-house'
  | 'raceway'
  | 'golf-course'
  | 'casino-theater';

/** The menu group a category route sits in (RULES 2.1, the routes linked to). */
export type CategoryGroup = 'sports' | 'concerts' | 'theater' | 'other';

/**
 * How a category's events are scheduled: league home games, tours across metros, runs at one theater,
 * or multi-day tournaments at a specialised venue.
 */
export type ScheduleKind = 'league' | 'tour' | 'residency' | 'tournament';

/**
 * One category: its route slug and name, its menu group, its place in the parent/child/grandchild tree, and how
 * the generated catalog schedules its events and names its performers. The table is `categories.ts`.
 */
export interface CategoryDefinition {
  slug: string;
  name: string;
  group: CategoryGroup;
  parent: TopCategory;
  child: string;
  grandchild: string;
  schedule: ScheduleKind;
  venueKinds: readonly VenueKind[];
  /** Share of the non-league events this category receives. */
  weight: number;
  /** Whether its fictional performers are people (`person`) or acts (`band`); real names come from the data lists. */
  names: 'person' | 'band' | 'show' | 'team';
  /** False for the Concerts page's sub-segments that RULES 2.1 does not list among the menu's category links. */
  inMenu?: false;
}
