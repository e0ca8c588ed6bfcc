import { CATEGORIES } from '../../../shared/catalog/categories.js';
import { categoryImageCode } from '../../../shared/catalog/category-images.js';
import type { PerformerDocument, TopCategory } from '../../../shared/schemas/documents.js';
import { entitySlug } from '../../../shared/rules/slug.js';
import { US_CITIES } from '../data/cities.js';
import type { PerformerRec, VenueRec } from './catalog-records.js';
import type { CatalogWriters } from './catalog-writers.js';
import { categoryImage, performerImage } from './media-paths.js';

const TOP_PERFORMER_SHARE = 0.05;

/** Performers by orders over twelve months, most first (ties by id): the order of their ranks. */
export function rankPerformers(performers: readonly PerformerRec[]): PerformerRec[] {
  return performers.slice().sort((a, b) => b.ordersT12 - a.ordersT12 || a.id - b.id);
}

/** A performer document and its image per performer, from the totals of its events. */
export function writePerformers(
  writers: Pick<CatalogWriters, 'Performer' | 'TSImage'>,
  performers: readonly PerformerRec[],
  ranked: readonly PerformerRec[],
): void {
  const rankOf = new Map(ranked.map((p, i) => [p.id, i + 1]));
  const topCut = Math.max(1, Math.round(performers.length * TOP_PERFORMER_SHARE));
  for (const p of performers) {
    const venueList = [...p.venues.values()].sort((a, b) => a.first - b.first || a.venue.id - b.venue.id);
    const doc: PerformerDocument = {
      id: String(p.id),
      performer_id: p.id,
      performer_name: p.name,
      image: performerImage(p.id),
      events_available: p.upcoming,
      tickets_available: p.tickets,
      ticket_groups_available: p.groups,
      total_inventory_value: Math.round(p.inventory * 100) / 100,
      venues: venueList.map(({ venue, minPrice }) => ({
        venue_id: venue.id,
        venue_name: venue.name,
        venue_city: venue.city,
        min_ticket_price: minPrice,
      })),
      venue_locations: venueList.map(({ venue }) => [venue.lat, venue.lng] as [number, number]),
      category: p.category.slug,
      parent: p.category.parent as TopCategory,
      child: p.category.child,
      grandchild: p.category.grandchild,
      order_rank: rankOf.get(p.id)!,
      expiry_datetime: p.lastStart ? new Date(p.lastStart * 1000).toISOString() : '',
      performer_orders_d7: p.ordersD7,
      performer_orders_t12: p.ordersT12,
      custom_label: rankOf.get(p.id)! <= topCut ? 'topperf' : '',
    };
    writers.Performer.write(doc);
    writers.TSImage.write({ id: doc.id, image_url: doc.image });
  }
}

export function writeVenues(writer: CatalogWriters['Venue'], venues: readonly VenueRec[]): void {
  for (const v of venues) {
    writer.write({
      id: String(v.id),
      venue_id: v.id,
      venue_name: v.name,
      venue_kind: v.kind,
      venue_city: v.city,
      venue_state: v.stateName,
      venue_state_province_short: v.state,
      venue_country_short: v.country,
      venue_zip: v.zip,
      venue_time_zone: v.timeZone,
      venue_location: [v.lat, v.lng],
      capacity: v.capacity,
      events_available: v.upcoming,
      total_inventory_value: Math.round(v.inventory * 100) / 100,
    });
  }
}

/** The explore entries: every category, the performers by rank, and the venues with upcoming events. */
export function writeExplore(
  writer: CatalogWriters['Explore'],
  ranked: readonly PerformerRec[],
  venues: readonly VenueRec[],
): void {
  let oid = 0;
  for (const c of CATEGORIES) {
    writer.write({
      id: `category-${c.slug}`,
      _oid: oid++,
      entity_id: CATEGORIES.indexOf(c) + 1,
      entity_type: 'category',
      text: c.name,
      path_picture: categoryImage(categoryImageCode(c)),
      url: `/category/${c.slug}`,
      rank: 1_000_000,
    });
  }
  for (const p of ranked) {
    writer.write({
      id: `performer-${p.id}`,
      _oid: oid++,
      entity_id: p.id,
      entity_type: 'performer',
      text: p.name,
      path_picture: performerImage(p.id),
      url: `/performers/${entitySlug(p.name, p.id)}`,
      rank: p.ordersT12,
    });
  }
  for (const v of venues.filter((x) => x.upcoming > 0)) {
    writer.write({
      id: `venue-${v.id}`,
      _oid: oid++,
      entity_id: v.id,
      entity_type: 'venue',
      text: v.name,
      path_picture: `/media/venues/${v.id}.svg`,
      url: `/venues/${entitySlug(v.name, v.id)}`,
      rank: v.upcoming,
    });
  }
}

export function writeUsCities(writer: CatalogWriters['USCity']): void {
  US_CITIES.forEach((c, i) => {
    writer.write({
      id: String(i + 1),
      city: c.city,
      state_name: c.stateName,
      state_id: c.stateId,
      population: c.population,
      location: [c.lat, c.lng],
      zip: c.zip,
      time_zone: c.timeZone,
    });
  });
}
