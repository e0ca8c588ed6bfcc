import type { EventDocument } from '../shared/schemas/documents.js';
import { expect, type APIRequestContext } from './fixtures.js';

// The catalog as an operator's feed changes it while the storefront serves: documents upserted through the
// documents API (`/api/admin`, Typesense's shape), with the key playwright.config.ts gives the e2e server.

const HOUR_MS = 3_600_000;
/** Ids past any the generated catalog gives (it counts events up from 100001, venues and performers lower). */
const OPERATOR_ID_BASE = 990_000_000;

/**
 * A hall of the operator's own, far from every place the specs put a shopper, with a performer of its own: the
 * events held there show in no row, list or suggestion that another spec reads.
 */
const HALL = {
  venue_id: OPERATOR_ID_BASE + 1,
  venue_name: 'Nome Winter Arena',
  venue_city: 'Nome',
  venue_state: 'Alaska',
  venue_state_province_short: 'AK',
  venue_country_short: 'US',
  venue_zip: '99762',
  venue_location: [64.5, -165.41] as [number, number],
  venue_time_zone_offset: -9,
};
const ACT = { performer_ids: [OPERATOR_ID_BASE + 1], performer_names: ['Nome Rodeo Riders'] };

/** `YYYY-MM-DDTHH:mm:ss` at the hall for an instant. */
function hallLocal(ms: number): string {
  return new Date(ms + HALL.venue_time_zone_offset * HOUR_MS).toISOString().slice(0, 'YYYY-MM-DDTHH:mm:ss'.length);
}

/** An event at the operator's hall, number `n` of the operator's events, starting at `startsAt`. */
export function hallEvent(
  n: number,
  name: string,
  status: EventDocument['event_status'],
  startsAt: Date,
): EventDocument {
  const eventId = OPERATOR_ID_BASE + n;
  return {
    id: String(eventId),
    event_id: eventId,
    event_name: name,
    event_status: status,
    ...HALL,
    event_local_timestamp: hallLocal(startsAt.getTime()),
    event_timestamp: Math.floor(startsAt.getTime() / 1000),
    event_orders_d1: 0,
    event_cart_d1: 0,
    event_mpv_d1: 0,
    event_orders_d7: 0,
    event_orders_t12: 0,
    tickets_available: 12,
    ticket_groups_available: 3,
    min_ticket_price: 45,
    major_category: 'OTHER',
    parent_category: 'RODEO',
    child_category: '',
    category: 'rodeo',
    ...ACT,
  };
}

/**
 * A show tonight at a hall of its own (RULES 19.6: a ticket scans on its event's day at the venue). The hall's clock
 * reads about noon whenever the test runs, so the show, six hours on, is today there and not started; every eTicket
 * listing of a show today is ready today (RULES 10.11), once the seller confirms.
 */
export function showTonight(n: number, name: string): EventDocument {
  const now = Date.now();
  const offset = 12 - new Date(now).getUTCHours();
  const startsAt = now + 6 * HOUR_MS;
  const doc = hallEvent(n, name, 'scheduled', new Date(startsAt));
  return {
    ...doc,
    venue_id: doc.event_id,
    venue_name: `${name} Hall ${n}`,
    venue_time_zone_offset: offset,
    event_local_timestamp: new Date(startsAt + offset * HOUR_MS).toISOString().slice(0, 'YYYY-MM-DDTHH:mm:ss'.length),
    tickets_available: 40,
    ticket_groups_available: 8,
  };
}

/** Upserts events into the served catalog, as a feed does; each must be accepted. */
export async function upsertEvents(request: APIRequestContext, events: readonly EventDocument[]): Promise<void> {
  const key = process.env.E2E_CATALOG_ADMIN_KEY;
  expect(key, 'the e2e server has a catalog key (playwright.config.ts)').toBeTruthy();
  const answer = await request.post('/api/admin/collections/Event/documents/import?action=upsert', {
    headers: { 'X-TYPESENSE-API-KEY': key!, 'Content-Type': 'text/plain' },
    data: events.map((e) => JSON.stringify(e)).join('\n'),
  });
  const body = await answer.text();
  expect(answer.status(), body).toBe(200);
  expect(
    body.split('\n').map((line) => JSON.parse(line) as unknown),
    body,
  ).toEqual(events.map(() => ({ success: true })));
}
