import type { Logger } from 'pino';
import { cheapestOffer } from '../../shared/rules/offer.js';
import { MAX_IN_VALUES, MAX_PER_PAGE } from '../../shared/schemas/search.js';
import { repeat } from '../background/repeat.js';
import type { EventDocument, PerformerDocument } from '../../shared/schemas/documents.js';
import { availableSplits, type GeneratedListing, type ListedAvailability } from '../commerce/domain/listings.js';
import type { SearchEngine } from '../search/search-engine.js';
import type { Sql } from '../store/sql.js';
import type { Doc } from '../catalog/document-writes.js';
import type { LiveCatalog } from './live-catalog.js';

/** How often the signals are brought up to date (one node does it per period). */
export const DEMAND_INTERVAL_MS = 5_000;
/** Events refreshed per round trip. */
const CHUNK = 500;

/**
 * The windows of the demand fields the badges and trending rows read (RULES 5.1, 7.12): `d1` the last day, `d7` the
 * last seven days, `t12` the trailing twelve months.
 */
const WINDOWS = { d1: '1 day', d7: '7 days', t12: '365 days' } as const;

const EVENT_COUNTERS = [
  'event_orders_d1',
  'event_cart_d1',
  'event_mpv_d1',
  'event_orders_d7',
  'event_orders_t12',
] as const;
const PERFORMER_COUNTERS = ['performer_orders_d7', 'performer_orders_t12'] as const;
/** What the event had on sale as listed: its baseline, from which its listings are generated. */
const LISTED_FIELDS = ['tickets_available', 'ticket_groups_available', 'min_ticket_price'] as const;
type Counters = Record<string, number>;
/** Per document: the counters before live activity, and the counters written from them. */
interface Baselines {
  collection: 'Event' | 'Performer';
  rows: { id: string; baseline: Counters; written: Counters }[];
}

export interface DemandDeps {
  sql: Sql;
  catalog: LiveCatalog;
  /** An event's listings given its availability as listed (`ListingCatalog.listingsAsListed`). */
  listings: (event: EventDocument, listed: ListedAvailability) => Promise<GeneratedListing[]>;
  /** Searches (for a performer's events). */
  engine: () => SearchEngine;
  logger: Logger;
  now?: () => Date;
}

/**
 * Demand signals from what shoppers do. Carts (holds), orders and event page views in the store are counted in
 * their windows and added to the counts the catalog had for the time before (its "baseline", kept in
 * `demand_baselines`, and taken afresh whenever someone else, an operator's feed, rewrites them); tickets held
 * and sold set `tickets_available` and `ticket_groups_available` from the event's listings. What changed is
 * written through the live catalog like any other change, so it reaches every node, its caches and its badges;
 * marked as demand, it replaces the document's demand change still in the log rather than adding to it.
 * Every figure is recomputed from the store, never incremented: running a period twice writes the same values.
 */
export class DemandSignals {
  constructor(private readonly deps: DemandDeps) {}

  /** Runs every `DEMAND_INTERVAL_MS` until the returned function is called. */
  start(intervalMs = DEMAND_INTERVAL_MS): () => void {
    return repeat(
      () => this.run(),
      intervalMs,
      (err) => this.deps.logger.warn({ err }, 'demand signals could not be refreshed; retrying'),
    );
  }

  /**
   * Claims the period since the last run (so that one node refreshes each period) and refreshes the events
   * whose signals moved in it: new carts, orders and views, holds ending, and activity leaving a window.
   * Returns the number of documents changed.
   */
  async run(): Promise<number> {
    const { sql } = this.deps;
    const until = (this.deps.now?.() ?? new Date()).toISOString();
    const claimed = await sql.query<{ since: string | Date }>(
      `WITH old AS (SELECT last_run FROM demand_progress WHERE id = 1 FOR UPDATE)
       UPDATE demand_progress d SET last_run = $1::timestamptz
       FROM old WHERE d.id = 1 AND old.last_run < $1::timestamptz
       RETURNING old.last_run AS since`,
      [until],
    );
    if (claimed.length === 0) return 0;
    const since = new Date(claimed[0]!.since).toISOString();
    const touched = await this.touchedEvents(since, until);
    let changed = 0;
    for (let at = 0; at < touched.length; at += CHUNK)
      changed += await this.refresh(touched.slice(at, at + CHUNK), until);
    return changed;
  }

  private async touchedEvents(since: string, until: string): Promise<number[]> {
    // Activity in the period, or leaving a window in it (its time plus the window falls in the period).
    const moved = (table: string, column: string, windows: readonly string[]) =>
      windows.map((w) => {
        const id =
          table === 'recent_activity'
            ? "entity_id AS id FROM recent_activity WHERE entity_type = 'event' AND"
            : `event_id AS id FROM ${table} WHERE`;
        return (
          `SELECT ${id} ${column} > $1::timestamptz - interval '${w}' AND ${column} ` +
          `<= $2::timestamptz - interval '${w}'`
        );
      });
    const parts = [
      ...moved('holds', 'created_at', ['0 days', WINDOWS.d1]),
      ...moved('holds', 'expires_at', ['0 days']),
      ...moved('orders', 'created_at', ['0 days', WINDOWS.d1, WINDOWS.d7, WINDOWS.t12]),
      ...moved('recent_activity', 'viewed_at', ['0 days', WINDOWS.d1]),
    ];
    const rows = await this.deps.sql.query<{ id: string | number }>(parts.join(' UNION '), [since, until]);
    return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  }

  /** Recomputes the signals of some events (and their performers' order counts); the documents changed. */
  private async refresh(eventIds: number[], now: string): Promise<number> {
    const { sql, catalog } = this.deps;
    const docs = [...(await catalog.documents('Event', eventIds.map(String))).values()] as EventDocument[];
    if (docs.length === 0) return 0;
    const ids = docs.map((d) => d.event_id);
    const [carts, orders, views, inventory] = await Promise.all([
      sql.query<{ id: string; n: string }>(
        `SELECT event_id AS id, count(*) AS n FROM holds WHERE event_id = ANY($1) ` +
          `AND created_at > $2::timestamptz - interval '${WINDOWS.d1}' GROUP BY ` +
          `event_id`,
        [ids, now],
      ),
      sql.query<{ id: string; d1: string; d7: string; t12: string }>(
        `SELECT event_id AS id,
                count(*) FILTER (WHERE created_at ` +
          `> $2::timestamptz - interval '${WINDOWS.d1}') AS d1,
                ` +
          `count(*) FILTER (WHERE created_at > $2::timestamptz - interval ` +
          `'${WINDOWS.d7}') AS d7,
                count(*) AS t12
         FROM ` +
          `orders WHERE event_id = ANY($1) AND created_at > $2::timestamptz - ` +
          `interval '${WINDOWS.t12}' GROUP BY event_id`,
        [ids, now],
      ),
      sql.query<{ id: string; n: string }>(
        `SELECT entity_id AS id, count(*) AS n FROM recent_activity WHERE ` +
          `entity_type = 'event' AND entity_id = ANY($1) AND viewed_at > ` +
          `$2::timestamptz - interval '${WINDOWS.d1}' GROUP BY entity_id`,
        [ids, now],
      ),
      sql.query<{ event_id: string; listing_id: string; held: number; sold: number }>(
        'SELECT event_id, listing_id, held, sold FROM listing_inventory WHERE event_id = ANY($1)',
        [ids],
      ),
    ]);
    const byId = <R extends { id: string }>(rows: R[]) => new Map(rows.map((r) => [Number(r.id), r]));
    const cartsOf = byId(carts);
    const ordersOf = byId(orders);
    const viewsOf = byId(views);
    const takenOf = new Map<number, Map<number, number>>();
    for (const r of inventory) {
      const event = Number(r.event_id);
      if (!takenOf.has(event)) takenOf.set(event, new Map());
      takenOf.get(event)!.set(Number(r.listing_id), Number(r.held) + Number(r.sold));
    }
    const live = new Map<number, Counters>(
      docs.map((d) => {
        const o = ordersOf.get(d.event_id);
        return [
          d.event_id,
          {
            event_orders_d1: Number(o?.d1 ?? 0),
            event_cart_d1: Number(cartsOf.get(d.event_id)?.n ?? 0),
            event_mpv_d1: Number(viewsOf.get(d.event_id)?.n ?? 0),
            event_orders_d7: Number(o?.d7 ?? 0),
            event_orders_t12: Number(o?.t12 ?? 0),
          },
        ];
      }),
    );
    const { updates, saved } = await this.withBaselines(
      'Event',
      docs,
      [...EVENT_COUNTERS, ...LISTED_FIELDS],
      async (d, baseline) => {
        const event = d as EventDocument;
        const next: Counters = Object.fromEntries(
          EVENT_COUNTERS.map((f) => [f, (baseline[f] ?? 0) + live.get(event.event_id)![f]!]),
        );
        const taken = takenOf.get(event.event_id);
        // The event's listings are its inventory (as listed: the baseline's availability): what is neither held nor
        // sold of them is available now.
        const listed = {
          tickets_available: baseline.tickets_available!,
          ticket_groups_available: baseline.ticket_groups_available!,
          min_ticket_price: baseline.min_ticket_price!,
        };
        if (!taken) return { ...next, ...listed };
        const listings = await this.deps.listings(event, listed);
        // What is left of each listing, and the quantities its seller still sells of it: a listing selling none
        // (one seat of a pairs-only seller) is not on offer (`ListingService`), so neither it nor its seats count.
        const onOffer = listings
          .map((l) => {
            const left = Math.max(0, l.quantity - (taken.get(l.id) ?? 0));
            return { id: l.id, left, splits: availableSplits(l.splits, left), price: l.pricePerTicket };
          })
          .filter((l) => l.left > 0 && l.splits.length > 0);
        next.tickets_available = onOffer.reduce((sum, l) => sum + l.left, 0);
        next.ticket_groups_available = onOffer.length;
        // RULES 3.9: the cards' "From" price is the cheapest listing a shopper can buy now (`shared/rules/offer.ts`,
        // all in by `shared/rules/pricing.ts`); with nothing to buy it is 0, and the card says "Sold out" (5.5).
        next.min_ticket_price = cheapestOffer(onOffer, (l) => l.price)?.price ?? 0;
        return next;
      },
    );
    let changed = await this.write('Event', [...updates.values()], saved);
    // A performer card's "From" is its first venue's lowest price: the venues of events whose price moved follow.
    const repriced = docs.filter((d) => updates.get(d.id)?.min_ticket_price !== undefined);
    changed += await this.repricePerformers(repriced);
    // Performers of events with orders in the last twelve months: new orders, and orders leaving the 7 days.
    const performerIds = [...new Set(docs.filter((d) => ordersOf.has(d.event_id)).flatMap((d) => d.performer_ids))];
    changed += await this.refreshPerformers(performerIds, now);
    return changed;
  }

  /** Performers' order counts over all their events. */
  private async refreshPerformers(performerIds: number[], now: string): Promise<number> {
    if (performerIds.length === 0) return 0;
    const docs = [
      ...(await this.deps.catalog.documents('Performer', performerIds.map(String))).values(),
    ] as PerformerDocument[];
    // Every event of these performers, then their orders counted per event in one query, summed per performer.
    const events = await this.eventsOf(docs.map((p) => p.performer_id));
    const rows = await this.deps.sql.query<{ id: string; d7: string; t12: string }>(
      `SELECT event_id AS id, count(*) FILTER (WHERE created_at > ` +
        `$2::timestamptz - interval '${WINDOWS.d7}') AS d7, count(*) AS t12
      ` +
        ` FROM orders WHERE event_id = ANY($1) AND created_at > $2::timestamptz - ` +
        `interval '${WINDOWS.t12}' GROUP BY event_id`,
      [events.map((e) => e.event_id), now],
    );
    const ordersOf = new Map(rows.map((r) => [Number(r.id), r]));
    const live = new Map<number, Counters>(
      docs.map((p) => [p.performer_id, { performer_orders_d7: 0, performer_orders_t12: 0 }]),
    );
    for (const e of events) {
      const o = ordersOf.get(e.event_id);
      if (!o) continue;
      for (const id of e.performer_ids) {
        const counts = live.get(id);
        if (!counts) continue;
        counts.performer_orders_d7! += Number(o.d7);
        counts.performer_orders_t12! += Number(o.t12);
      }
    }
    const { updates, saved } = await this.withBaselines('Performer', docs, PERFORMER_COUNTERS, (d, baseline) =>
      Object.fromEntries(
        PERFORMER_COUNTERS.map((f) => [f, (baseline[f] ?? 0) + live.get((d as PerformerDocument).performer_id)![f]!]),
      ),
    );
    return this.write('Performer', [...updates.values()], saved);
  }

  /**
   * The performers' venue prices (`venues[].min_ticket_price`, the performer card's "From") at the venues of
   * these events, recomputed as the lowest price of the performer's events there that have tickets to buy (as the
   * catalog defines it), or 0 when none has.
   */
  private async repricePerformers(events: readonly EventDocument[]): Promise<number> {
    if (events.length === 0) return 0;
    const venuesOf = new Map<number, Set<number>>();
    for (const e of events) {
      for (const id of e.performer_ids) {
        if (!venuesOf.has(id)) venuesOf.set(id, new Set());
        venuesOf.get(id)!.add(e.venue_id);
      }
    }
    const docs = [
      ...(await this.deps.catalog.documents('Performer', [...venuesOf.keys()].map(String))).values(),
    ] as PerformerDocument[];
    const updates: Doc[] = [];
    for (const performer of docs) {
      const at = venuesOf.get(performer.performer_id)!;
      let moved = false;
      const venues = [];
      for (const venue of performer.venues) {
        if (!at.has(venue.venue_id)) {
          venues.push(venue);
          continue;
        }
        const { hits } = await this.deps.engine().search({
          collection: 'Event',
          filters: [
            { op: 'in', field: 'performer_ids', values: [performer.performer_id] },
            { op: 'eq', field: 'venue_id', value: venue.venue_id },
            { op: 'gt', field: 'min_ticket_price', value: 0 },
            // Only events with tickets to buy (RULES 5.5: a sold-out or cancelled event has no "From").
            { op: 'gt', field: 'ticket_groups_available', value: 0 },
            { op: 'neq', field: 'event_status', value: 'cancelled' },
          ],
          sort: [{ by: 'min_ticket_price', order: 'asc' }],
          perPage: 1,
          includeFields: ['min_ticket_price'],
        });
        // None of their events there has anything to buy: no price at this venue (the card shows no "From").
        const lowest = hits[0]?.document.min_ticket_price ?? 0;
        moved ||= lowest !== venue.min_ticket_price;
        venues.push({ ...venue, min_ticket_price: lowest });
      }
      if (moved) updates.push({ id: performer.id, venues });
    }
    if (updates.length === 0) return 0;
    const outcomes = await this.deps.catalog.write(
      'Performer',
      'update',
      updates.map((u) => ({ text: JSON.stringify(u), value: u })),
      undefined,
      { demand: true },
    );
    return outcomes.filter((o) => o.ok).length;
  }

  /** Every event of these performers (its id and performers), through the search engine. */
  private async eventsOf(performerIds: readonly number[]): Promise<{ event_id: number; performer_ids: number[] }[]> {
    const events = new Map<number, { event_id: number; performer_ids: number[] }>();
    // An `in` filter takes at most MAX_IN_VALUES values.
    for (let at = 0; at < performerIds.length; at += MAX_IN_VALUES) {
      const values = performerIds.slice(at, at + MAX_IN_VALUES);
      for (let page = 1, seen = 0; ; page++) {
        const result = await this.deps.engine().search({
          collection: 'Event',
          filters: [{ op: 'in', field: 'performer_ids', values }],
          includeFields: ['event_id', 'performer_ids'],
          perPage: MAX_PER_PAGE,
          page,
        });
        for (const { document } of result.hits)
          events.set(document.event_id!, { event_id: document.event_id!, performer_ids: document.performer_ids! });
        seen += result.hits.length;
        if (seen >= result.found || result.hits.length === 0) break;
      }
    }
    return [...events.values()];
  }

  /**
   * The fields' new values for each document (`next`, from its baseline), as updates of those that differ. A
   * document whose fields are not what was last written here was rewritten by someone else (an operator's
   * feed): its values become the baseline.
   */
  private async withBaselines<D extends Doc | EventDocument | PerformerDocument>(
    collection: 'Event' | 'Performer',
    docs: readonly D[],
    fields: readonly string[],
    next: (doc: D, baseline: Counters) => Counters | Promise<Counters>,
  ): Promise<{ updates: Map<string, Doc>; saved: Baselines }> {
    const rows = await this.deps.sql.query<{ doc_id: string; baseline: Counters | string; written: Counters | string }>(
      'SELECT doc_id, baseline, written FROM demand_baselines WHERE collection = $1 AND doc_id = ANY($2)',
      [collection, docs.map((d) => d.id)],
    );
    const json = (v: Counters | string): Counters => (typeof v === 'string' ? (JSON.parse(v) as Counters) : v);
    const kept = new Map(rows.map((r) => [r.doc_id, { baseline: json(r.baseline), written: json(r.written) }]));
    const updates = new Map<string, Doc>();
    const saved: Baselines = { collection, rows: [] };
    for (const doc of docs) {
      const current = Object.fromEntries(fields.map((f) => [f, Number((doc as Record<string, unknown>)[f] ?? 0)]));
      const row = kept.get(doc.id);
      const ours = row && fields.every((f) => row.written[f] === current[f]);
      const baseline = ours ? row.baseline : current;
      const values = await next(doc, baseline);
      saved.rows.push({ id: doc.id, baseline, written: values });
      const changed = fields.filter((f) => values[f] !== current[f]);
      if (changed.length > 0)
        updates.set(doc.id, { id: doc.id, ...Object.fromEntries(changed.map((f) => [f, values[f]])) });
    }
    return { updates, saved };
  }

  /** Writes the updates through the live catalog, then the baselines they were computed from (once written). */
  private async write(collection: 'Event' | 'Performer', updates: Doc[], saved: Baselines): Promise<number> {
    let written = 0;
    if (updates.length > 0) {
      // As demand signals (RULES 15.8, 15.11): each replaces the one before it of the same document still in the
      // log, so the log holds one per document however often its figures move (`ChangeLog`).
      const outcomes = await this.deps.catalog.write(
        collection,
        'update',
        updates.map((u) => ({ text: JSON.stringify(u), value: u })),
        undefined,
        { demand: true },
      );
      const refused = outcomes.filter((o) => !o.ok);
      if (refused.length > 0)
        this.deps.logger.warn(
          { collection, refused: refused.length, first: refused[0] },
          'demand signals refused by the catalog',
        );
      written = outcomes.length - refused.length;
    }
    const { rows } = saved;
    await this.deps.sql.query(
      `INSERT INTO demand_baselines (collection, doc_id, baseline, written)
       SELECT $1, i, b::jsonb, w::jsonb FROM unnest($2::text[], $3::text[], $4::text[]) AS t(i, b, w)
       ON CONFLICT (collection, doc_id) DO UPDATE SET baseline = EXCLUDED.baseline, written = EXCLUDED.written`,
      [
        collection,
        rows.map((s) => s.id),
        rows.map((s) => JSON.stringify(s.baseline)),
        rows.map((s) => JSON.stringify(s.written)),
      ],
    );
    return written;
  }
}
