/**
 * Seat numbers (product decision; the spec is silent). The listings of an event that share a section and a
 * row sit side by side in that row: each takes a block of as many seats as it lists, in listing order, from
 * seat 1. An order takes the lowest seats of its listing's block not held by a standing order (the store does
 * that at purchase), so a listing's seats stay inside its block and two orders never share a seat.
 * General admission has no seats.
 *
 * Companion seats (RULES 10.16) are numbered after every listing's block of their row, in listing order, so the
 * seats of the row's listings keep the numbers they had before any companion seat was listed.
 */

import { GENERAL_ADMISSION_ROW, isGeneralAdmission } from '../../../shared/rules/disclosures.js';

export { GENERAL_ADMISSION_ROW, isGeneralAdmission };

interface SeatedListing {
  id: number;
  section: string;
  row: string;
  quantity: number;
  /** Companion seats listed beside the wheelchair spaces (absent: none). */
  companionSeats?: number;
}

/** The first seat number of a listing's block, or null for general admission or a listing not in `listings`. */
export function seatBlockStart(listings: readonly SeatedListing[], listingId: number): number | null {
  const listing = listings.find((l) => l.id === listingId);
  if (!listing || isGeneralAdmission(listing.row)) return null;
  let start = 1;
  for (const l of listings) {
    if (l.id === listingId) return start;
    if (l.section === listing.section && l.row === listing.row) start += l.quantity;
  }
  return null;
}

/**
 * The first seat number of a listing's companion seats: after the blocks of every listing in its row, and after
 * the companion seats of the row's earlier listings; null for general admission or a listing not in `listings`.
 */
export function companionBlockStart(listings: readonly SeatedListing[], listingId: number): number | null {
  const listing = listings.find((l) => l.id === listingId);
  if (!listing || isGeneralAdmission(listing.row)) return null;
  const sameRow = listings.filter((l) => l.section === listing.section && l.row === listing.row);
  let start = 1 + sameRow.reduce((sum, l) => sum + l.quantity, 0);
  for (const l of sameRow) {
    if (l.id === listingId) return start;
    start += l.companionSeats ?? 0;
  }
  return null;
}

/** A ticket's seat: its block's start plus its index in the block (0-based), or null for general admission. */
export function seatNumber(blockStart: number | null, seatIndex: number): number | null {
  return blockStart === null ? null : blockStart + seatIndex;
}
