import { AppError } from '../../http/errors.js';
import { GUESTS_PER_ADDRESS, MAX_TICKETS_PER_EVENT } from '../../../shared/rules/constants.js';
import type { PurchaseAllowance } from '../../../shared/schemas/purchase-limits.js';

/**
 * The fair-share rule: how much of one event a single buyer may hold or own, so one guest (or one script)
 * cannot empty an event and keep it "sold out" by renewing holds. The spec is silent; the figures are the
 * marketplace's own. 8 tickets per event is the ceiling primary on-sales commonly set (Ticketmaster's per
 * account event limits are 4 to 8), large enough for a family or a group outing.
 */
export { MAX_TICKETS_PER_EVENT } from '../../../shared/rules/constants.js';
/** Open carts (unexpired holds) at once: enough to compare two or three seats, too few to sit on an event. */
export const MAX_OPEN_CARTS = 3;
/**
 * Minting new guest tokens must not reset the limits, so they also apply per client address, with room for
 * several people behind one address (a household, an office, a campus behind one NAT): a guest token is a
 * browser, an address may be several.
 */
export { GUESTS_PER_ADDRESS } from '../../../shared/rules/constants.js';

export interface PurchaseLimits {
  ticketsPerEvent: number;
  openCarts: number;
  guestsPerAddress: number;
}

export const PURCHASE_LIMITS: PurchaseLimits = {
  ticketsPerEvent: MAX_TICKETS_PER_EVENT,
  openCarts: MAX_OPEN_CARTS,
  guestsPerAddress: GUESTS_PER_ADDRESS,
};

/** What one buyer already has: tickets of this event held or bought, and open carts (any event). */
export interface BuyerUsage {
  eventTickets: number;
  openCarts: number;
}

/**
 * The refusal for a buyer who wants `quantity` more tickets of an event, or null when it is within the
 * limits. `byAddress` is what every guest at the client's address has together.
 */
export function purchaseLimitRefusal(input: {
  quantity: number;
  guest: BuyerUsage;
  byAddress?: BuyerUsage;
  limits?: PurchaseLimits;
}): AppError | null {
  const limits = input.limits ?? PURCHASE_LIMITS;
  const checks: { usage: BuyerUsage; tickets: number; carts: number; who: string }[] = [
    { usage: input.guest, tickets: limits.ticketsPerEvent, carts: limits.openCarts, who: 'You' },
  ];
  if (input.byAddress) {
    checks.push({
      usage: input.byAddress,
      tickets: limits.ticketsPerEvent * limits.guestsPerAddress,
      carts: limits.openCarts * limits.guestsPerAddress,
      who: 'Shoppers on your network',
    });
  }
  for (const { usage, tickets, carts, who } of checks) {
    if (usage.openCarts >= carts) {
      return new AppError(
        409,
        'cart_limit',
        `${who} already have ${usage.openCarts} open carts, the most allowed at once; check out or release one first`,
        { limit: carts, open: usage.openCarts },
      );
    }
    if (usage.eventTickets + input.quantity > tickets) {
      const left = Math.max(0, tickets - usage.eventTickets);
      return new AppError(
        409,
        'ticket_limit',
        `${who} may hold or buy at most ${tickets} tickets for one event` +
          (usage.eventTickets > 0
            ? `; ${usage.eventTickets} are already held or bought, so ` +
              (left === 0 ? 'no more can be added' : `at most ${left} more`)
            : ''),
        { limit: tickets, alreadyHeldOrBought: usage.eventTickets, left },
      );
    }
  }
  return null;
}

/**
 * RULES 8.1: what a buyer may still take of an event under the same limits `purchaseLimitRefusal` applies: a
 * quantity is refused exactly when it is above `left` (or no cart is left), so the page can say so before the
 * buyer meets the limit.
 */
export function purchaseAllowance(input: {
  eventId: number;
  guest: BuyerUsage;
  byAddress: BuyerUsage;
  limits?: PurchaseLimits;
}): PurchaseAllowance {
  const limits = input.limits ?? PURCHASE_LIMITS;
  const perShopper = { limit: limits.ticketsPerEvent, used: input.guest.eventTickets };
  const perNetwork = { limit: limits.ticketsPerEvent * limits.guestsPerAddress, used: input.byAddress.eventTickets };
  const cartsLeft = Math.max(
    0,
    Math.min(
      limits.openCarts - input.guest.openCarts,
      limits.openCarts * limits.guestsPerAddress - input.byAddress.openCarts,
    ),
  );
  const ticketsLeft = Math.max(0, Math.min(perShopper.limit - perShopper.used, perNetwork.limit - perNetwork.used));
  return { eventId: input.eventId, perShopper, perNetwork, left: cartsLeft > 0 ? ticketsLeft : 0, cartsLeft };
}
