import { ListingDocumentSchema, type ListingDocument } from '../../shared/schemas/commerce.js';
import { readJsonl } from '../catalog/jsonl.js';
import type { Sql } from '../store/sql.js';
import { termsFromNotes } from '../../shared/rules/disclosures.js';
import { splitsFor, type GeneratedListing } from './domain/listings.js';

/** Rows per INSERT when loading. */
const LOAD_CHUNK = 1_000;

/** An operator's listing document as the storefront sells it. */
export function listingFromDocument(doc: ListingDocument): GeneratedListing {
  // What the document does not state is read from the seller's notes, as for generated listings.
  const fromNotes = termsFromNotes(doc.seller_notes);
  return {
    id: doc.listing_id,
    eventId: doc.event_id,
    section: doc.section,
    row: doc.row,
    quantity: doc.quantity,
    splits: splitsFor(doc.quantity, doc.pairs_only),
    pricePerTicket: doc.price_per_ticket,
    deliveryMethod: doc.delivery_method,
    sellerNotes: doc.seller_notes,
    inHandDate: doc.in_hand_date,
    accessible: doc.accessible ?? fromNotes.accessible,
    // RULES 10.16: companion seats come only with wheelchair spaces.
    companionSeats: (doc.accessible ?? fromNotes.accessible) ? (doc.companion_seats ?? 0) : 0,
    obstructedView: doc.obstructed_view ?? fromNotes.obstructedView,
    ageRestriction: doc.age_restriction ?? fromNotes.ageRestriction,
    faceValue: doc.face_value ?? null,
    ticketsHeld: doc.tickets_held ?? true,
  };
}

/**
 * Puts an imported catalog's listings (`file`, `expected` of them, re-validated) into the store under the
 * catalog's name, where every node reads them; nothing to do when they are there already. Nodes starting
 * together may both load: the rows are the same, and the first written stands.
 */
export async function loadOperatorListings(sql: Sql, catalog: string, file: string, expected: number): Promise<number> {
  const [row] = await sql.query<{ n: string | number }>(
    'SELECT count(*) AS n FROM catalog_listings WHERE catalog = $1',
    [catalog],
  );
  if (Number(row?.n ?? 0) === expected) return 0;
  let chunk: ListingDocument[] = [];
  let loaded = 0;
  const flush = async () => {
    if (chunk.length === 0) return;
    await sql.query(
      `INSERT INTO catalog_listings (catalog, listing_id, event_id, document)
       SELECT $1, l, e, d::jsonb FROM unnest($2::bigint[], $3::bigint[], $4::text[]) AS t(l, e, d)
       ON CONFLICT (catalog, listing_id) DO NOTHING`,
      [catalog, chunk.map((l) => l.listing_id), chunk.map((l) => l.event_id), chunk.map((l) => JSON.stringify(l))],
    );
    loaded += chunk.length;
    chunk = [];
  };
  for await (const listing of readJsonl(file, ListingDocumentSchema)) {
    chunk.push(listing);
    if (chunk.length >= LOAD_CHUNK) await flush();
  }
  await flush();
  return loaded;
}
