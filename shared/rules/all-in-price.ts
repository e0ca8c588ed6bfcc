/**
 * The all-in price: what a shopper pays per ticket, every mandatory fee included. The US FTC rule on unfair or
 * deceptive fees (16 CFR Part 464, in force since 12 May 2025) requires live-event ticket sellers to show this
 * total price first and more prominently than any other; it lets shipping charges (sending physical goods by
 * mail) and government charges be left out of it as long as they are disclosed before the shopper pays. So the
 * all-in price is the ticket price plus the service fee; mailing paper tickets is shown beside it and added in
 * the cart. Every price a shopper sees (cards, the event page, listings, the seat map, the cart) comes from here.
 */

/**
 * Product decision (the spec gives no fee figures): the marketplace's service fee is 18% of what the buyer
 * pays for the tickets, after any promo, charged per ticket in whole cents.
 */
export const SERVICE_FEE_RATE = 0.18;

const BASIS_POINTS = 10_000;
const SERVICE_FEE_BASIS_POINTS = Math.round(SERVICE_FEE_RATE * BASIS_POINTS);

/** n / d rounded half up, for non-negative integers (exact, unlike rounding a float product). */
function divRound(n: number, d: number): number {
  return Math.floor((2 * n + d) / (2 * d));
}

/** A price in dollars as whole cents; throws RangeError for anything that is not at least one cent. */
export function priceCents(pricePerTicket: number): number {
  if (!Number.isFinite(pricePerTicket) || pricePerTicket <= 0)
    throw new RangeError(`price per ticket must be a positive amount, got ${pricePerTicket}`);
  const cents = Math.round(pricePerTicket * 100);
  if (cents <= 0) throw new RangeError(`price per ticket must be at least one cent, got ${pricePerTicket}`);
  return cents;
}

/** Service fee of one ticket, in cents, when `subtotalCents` is paid for `quantity` tickets. */
export function serviceFeePerTicketCents(subtotalCents: number, quantity = 1): number {
  return divRound(subtotalCents * SERVICE_FEE_BASIS_POINTS, quantity * BASIS_POINTS);
}

/** The all-in price of one ticket sold at `pricePerTicket` (dollars), in dollars. */
export function allInPrice(pricePerTicket: number): number {
  const cents = priceCents(pricePerTicket);
  return (cents + serviceFeePerTicketCents(cents)) / 100;
}

/**
 * The lowest all-in price of an event or a performer's venue from its lowest ticket price (the search
 * documents' `min_ticket_price`), or undefined when there is none. The fee only grows with the price, so the
 * cheapest ticket is also the cheapest all in.
 */
export function lowestAllInPrice(minTicketPrice: number): number | undefined {
  return Number.isFinite(minTicketPrice) && minTicketPrice >= 0.01 ? allInPrice(minTicketPrice) : undefined;
}
