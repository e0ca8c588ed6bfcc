import type { CategoryDefinition } from '../../../shared/catalog/taxonomy.js';
import type { EventDocument } from '../../../shared/schemas/documents.js';
import { WINDOW_DAYS, type DayInfo, type PerformerRec, type VenueRec } from './catalog-records.js';
import type { CatalogWriters } from './catalog-writers.js';
import { startAndStatus, type EdgeCase } from './edge-cases.js';
import type { GrossTicketValue } from './gross-ticket-value.js';
import type { Random } from './random.js';
import { formatLocal, zonedToUtc } from './zoned-time.js';

/** One event to write: who plays, where, on which day and at what local time. */
export interface EventInput {
  name: string;
  performers: PerformerRec[];
  venue: VenueRec;
  category: CategoryDefinition;
  day: DayInfo;
  time: readonly [number, number];
  basePrice: number;
  /** Non-league events may be turned into one of the deliberate edge cases. */
  ordinal?: number;
}

/** Documents written between waits for the disk (a power of two: the check is a mask). */
const SETTLE_EVERY = 4096;

/**
 * Writes events with their tickets, prices and demand, and counts each upcoming one into its venue, its
 * performers and the gross ticket value of its place.
 */
export class EventWriter {
  private nextEventId = 100001;

  constructor(
    private readonly writers: Pick<CatalogWriters, 'Event' | 'ZipEvent'>,
    private readonly rng: Random,
    private readonly startDate: { year: number; month: number; day: number },
    /** The catalog's "now": the first day of the schedule, in seconds. */
    private readonly nowSeconds: number,
    private readonly edgeByOrdinal: ReadonlyMap<number, EdgeCase>,
    private readonly gtv: GrossTicketValue,
  ) {}

  async write(input: EventInput): Promise<void> {
    const { rng, nowSeconds } = this;
    const { venue, category, performers: acts } = input;
    const edge = input.ordinal === undefined ? undefined : this.edgeByOrdinal.get(input.ordinal);
    const { local, status } = startAndStatus(edge, input.day, input.time, this.startDate, rng);
    const zoned = local ? zonedToUtc(local, venue.timeZone) : null;
    const timestamp = zoned ? Math.floor(zoned.utcMs / 1000) : null;
    const offsetHours = zoned
      ? zoned.offsetMinutes / 60
      : zonedToUtc({ ...input.day, hour: 12, minute: 0 }, venue.timeZone).offsetMinutes / 60;
    const daysAhead = timestamp === null ? 60 : (timestamp - nowSeconds) / 86400;
    const isPast = timestamp !== null && timestamp < nowSeconds;
    const isFar = daysAhead > WINDOW_DAYS * 2;

    // Demand: interest grows with the act's popularity; sales concentrate in the last weeks before the date.
    const interest = Math.min(1, highestPopularity(acts) * (0.6 + 0.8 * rng.next()));
    const soldOut = rng.chance(0.01);
    const tickets = soldOut
      ? 0
      : Math.max(1, Math.round(venue.capacity * (0.002 + 0.05 * rng.next()) * (1.3 - interest)));
    const groups = tickets === 0 ? 0 : Math.max(1, Math.round(tickets / rng.int(2, 6)));
    const price = Math.round(input.basePrice * (0.55 + 1.6 * interest) * (0.8 + 0.4 * rng.next()) * 100) / 100;
    const urgency = isFar ? 0 : daysAhead < 14 ? 1 : daysAhead < 60 ? 0.5 : 0.2;
    const ordersT12 = isFar ? 0 : Math.round(venue.capacity * 0.04 * interest * (0.5 + rng.next()));
    const ordersD7 = Math.round(ordersT12 * 0.12 * urgency * rng.next() * 2);
    const ordersD1 = rng.poisson((ordersD7 / 7) * (0.5 + rng.next()));
    const cartD1 = rng.poisson(ordersD1 * 1.4 + interest * 5 * urgency);
    const viewing = rng.poisson(interest * 18 * (0.3 + urgency));

    const doc: EventDocument = {
      id: String(this.nextEventId),
      event_id: this.nextEventId++,
      event_name: input.name,
      event_status: status,
      venue_id: venue.id,
      venue_name: venue.name,
      venue_city: venue.city,
      venue_state: venue.stateName,
      venue_state_province_short: venue.state,
      venue_country_short: venue.country,
      venue_zip: venue.zip,
      venue_location: [venue.lat, venue.lng],
      event_local_timestamp: local ? formatLocal(local) : null,
      venue_time_zone_offset: offsetHours,
      event_timestamp: timestamp,
      event_orders_d1: ordersD1,
      event_cart_d1: cartD1,
      event_mpv_d1: viewing,
      event_orders_d7: ordersD7,
      event_orders_t12: ordersT12,
      tickets_available: tickets,
      ticket_groups_available: groups,
      min_ticket_price: price,
      major_category: category.parent,
      parent_category: category.child,
      child_category: category.grandchild,
      category: category.slug,
      performer_ids: acts.map((a) => a.id),
      performer_names: acts.map((a) => a.name),
    };
    this.writers.Event.write(doc);
    if (venue.country === 'US' && /^\d{5}$/.test(venue.zip)) {
      this.writers.ZipEvent.write({
        id: doc.id,
        cat: category.slug,
        zip: venue.zip.slice(0, 3),
        event_id: doc.event_id,
        event_local_timestamp: doc.event_local_timestamp,
        event_timestamp: timestamp,
      });
    }

    if (!isPast && status !== 'cancelled') {
      const inventory = tickets * price * 1.35;
      venue.upcoming++;
      venue.inventory += inventory;
      const sortKey = timestamp ?? Number.MAX_SAFE_INTEGER;
      for (const act of acts) {
        act.upcoming++;
        act.tickets += tickets;
        act.groups += groups;
        act.inventory += inventory;
        act.ordersD7 += ordersD7;
        act.ordersT12 += ordersT12;
        if (timestamp !== null && !isFar) act.lastStart = Math.max(act.lastStart, timestamp);
        const seen = act.venues.get(venue.id);
        if (!seen) act.venues.set(venue.id, { venue, minPrice: price, first: sortKey });
        else {
          seen.minPrice = Math.min(seen.minPrice, price);
          seen.first = Math.min(seen.first, sortKey);
        }
      }
      if (venue.country === 'US' && /^\d{5}$/.test(venue.zip) && !isFar) {
        this.gtv.add(venue, ordersT12 * price * 1.8);
      }
    }
    if ((this.nextEventId & (SETTLE_EVERY - 1)) === 0) {
      await Promise.all([this.writers.Event.settle(), this.writers.ZipEvent.settle()]);
    }
  }
}

function highestPopularity(acts: readonly PerformerRec[]): number {
  let highest = -Infinity;
  for (const act of acts) highest = Math.max(highest, act.popularity);
  return highest;
}
