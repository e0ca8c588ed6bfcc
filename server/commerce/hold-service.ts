import { randomUUID } from 'node:crypto';
import { COMPANIONS_PER_SPACE, companionsAllowed, type Cart } from '../../shared/schemas/commerce.js';
import { AppError, notFound } from '../http/errors.js';
import type { IdempotencyStore, StoredAnswer } from '../http/idempotency.js';
import type { GeneratedListing } from './domain/listings.js';
import { PURCHASE_LIMITS, purchaseAllowance, type PurchaseLimits } from './domain/purchase-limits.js';
import type { PurchaseAllowance } from '../../shared/schemas/purchase-limits.js';
import { assertOnSale } from './domain/sale-window.js';
import { quoteHold } from './hold-quote.js';
import type { HoldStore } from './hold-store.js';
import type { ListingCatalog } from './listing-catalog.js';
import { uuidFrom } from './order-codes.js';
import type { HoldRow } from './store-rows.js';
import { stored } from './store-unavailable.js';

/** How long a cart holds its tickets (product decision: long enough to pay, short enough not to block others). */
export const HOLD_MINUTES = 10;

/** Who asks: the guest, and the client address their request came from (for the per-address limits). */
export interface Buyer {
  guestId: string;
  clientKey: string;
}

export interface HoldServiceOptions {
  holds: HoldStore;
  catalog: ListingCatalog;
  now: () => Date;
  /** The fair-share limits (tests narrow or widen them). */
  limits?: PurchaseLimits;
  /** The `Idempotency-Key`s of cart requests (the checkout's store); without it a key only names the hold. */
  idempotency?: IdempotencyStore;
}

/** What a shopper asks to hold: seats of a listing, and companion seats with an accessible listing's spaces. */
export interface CartInput {
  listingId: number;
  quantity: number;
  companions?: number;
}

/** Carts: tickets held for a guest for a while, at the price they were taken at, within the fair-share limits. */
export class HoldService {
  constructor(private readonly options: HoldServiceOptions) {}

  /**
   * The cart as charged: the price per ticket held with the tickets (whatever the listing costs now), so the
   * price shown is the price paid for as long as the hold lasts; with a promo code when one is given.
   */
  private cartOf(hold: HoldRow, listing: GeneratedListing, promoCode?: string): Cart {
    const quote = quoteHold(hold, listing, promoCode);
    const expired = hold.status === 'active' && new Date(hold.expires_at).getTime() <= this.options.now().getTime();
    return {
      id: hold.id,
      eventId: hold.event_id,
      listingId: hold.listing_id,
      quantitySelected: hold.quantity + hold.companions,
      companions: hold.companions,
      totalPrice: { value: quote.total },
      lineItems: quote.lineItems,
      expiresAt: hold.expires_at,
      status: expired ? 'expired' : hold.status,
      promoCode: quote.promoCode,
      // RULES 20.3: the checkout asks the buyer to confirm the notice with the cart itself, never a second request.
      ticketsHeld: listing.ticketsHeld,
    };
  }

  /**
   * A cart under an `Idempotency-Key` (when the shopper's client sent one), as the checkout's (RULES 10.6): the
   * same key and body replay the first answer, and the hold's id is derived from the guest and the key, so a retry
   * whose first try committed though its answer was lost (a 503) is answered with that hold, not given a second.
   */
  async createCartOnce(
    buyer: Buyer,
    input: CartInput,
    key: { key?: string; fingerprint: string },
  ): Promise<StoredAnswer> {
    const run = async () => ({ status: 201, body: await this.createCart(buyer, input, key.key) });
    const { idempotency } = this.options;
    if (!idempotency) return { ...(await run()), replayed: false };
    return stored('createCart', () =>
      idempotency.run({ scope: `cart:${buyer.guestId}`, key: key.key, fingerprint: key.fingerprint }, run),
    );
  }

  /** Holds tickets for the buyer; with a key, a hold the same key made already is answered instead (see above). */
  async createCart(buyer: Buyer, input: CartInput, key?: string): Promise<Cart> {
    const { listing, event } = await this.options.catalog.listingWithEvent(input.listingId, 'createCart');
    const now = this.options.now();
    assertOnSale(event, now);
    const companions = input.companions ?? 0;
    const refused = companionRefusal(listing, input.quantity, companions);
    if (refused) throw refused;
    const hold = await stored('createCart', () =>
      this.options.holds.createHold({
        id: key === undefined ? randomUUID() : uuidFrom(`cart\n${buyer.guestId}\n${key}`),
        fromKey: key !== undefined,
        guestId: buyer.guestId,
        clientKey: buyer.clientKey,
        limits: this.options.limits ?? PURCHASE_LIMITS,
        listing: {
          id: listing.id,
          eventId: event.event_id,
          listed: listing.quantity,
          splits: listing.splits,
          companionsListed: listing.companionSeats,
        },
        quantity: input.quantity,
        companions,
        pricePerTicketCents: Math.round(listing.pricePerTicket * 100),
        now,
        expiresAt: new Date(now.getTime() + HOLD_MINUTES * 60_000),
      }),
    );
    return this.cartOf(hold, listing);
  }

  /**
   * RULES 8.1: what the buyer may still take of an event (their own share and their network's), from the same
   * counts and rule the hold applies, so the page can say it before "Continue to checkout".
   */
  async allowance(buyer: Buyer, eventId: number): Promise<PurchaseAllowance> {
    const usage = await stored('purchaseLimits', () =>
      this.options.holds.usage({ ...buyer, eventId, now: this.options.now() }),
    );
    return purchaseAllowance({ eventId, ...usage, limits: this.options.limits });
  }

  /** The guest's own hold; another guest's cart is as unknown as a cart that does not exist. */
  async ownHold(guestId: string, cartId: string, during: 'cart' | 'releaseCart' | 'checkout'): Promise<HoldRow> {
    const hold = await stored(during, () => this.options.holds.hold(cartId));
    if (!hold || hold.guest_id !== guestId) throw notFound('Cart');
    return hold;
  }

  async cart(guestId: string, cartId: string, promoCode?: string): Promise<Cart> {
    const hold = await this.ownHold(guestId, cartId, 'cart');
    const { listing } = await this.options.catalog.listingWithEvent(hold.listing_id, 'cart');
    return this.cartOf(hold, listing, promoCode);
  }

  async releaseCart(guestId: string, cartId: string): Promise<void> {
    const hold = await this.ownHold(guestId, cartId, 'releaseCart');
    // A cart already let go of or run out is let go of again (204); one that was bought has nothing to let go of.
    if (hold.status === 'purchased')
      throw new AppError(
        409,
        'cart_purchased',
        'This cart was bought: its tickets are an order now, not a hold to let go of',
      );
    await stored('releaseCart', () => this.options.holds.releaseHold(cartId, guestId));
  }
}

/**
 * RULES 10.16: why `companions` companion seats cannot come with `spaces` seats of this listing, or null when they
 * may: only an accessible listing has them, at most one per wheelchair space, and never more than it lists (a 400:
 * asking again cannot help; too few left is the store's 409).
 */
export function companionRefusal(
  listing: Pick<GeneratedListing, 'accessible' | 'companionSeats'>,
  spaces: number,
  companions: number,
): AppError | null {
  if (companions === 0) return null;
  const field = (message: string) => [{ path: 'companions', message }];
  if (!listing.accessible || listing.companionSeats === 0)
    return new AppError(
      400,
      'companions_not_offered',
      'Companion seats come only with the wheelchair spaces of an accessible listing that offers them',
      field('this listing has no companion seats'),
    );
  const most = companionsAllowed(listing, spaces);
  if (companions > most)
    return new AppError(
      400,
      'too_many_companions',
      companions > spaces * COMPANIONS_PER_SPACE
        ? `At most one companion seat per wheelchair space: ${spaces} space${spaces === 1 ? '' : 's'} ` +
            `allow${spaces === 1 ? 's' : ''} at most ${spaces * COMPANIONS_PER_SPACE}`
        : `This listing has ${listing.companionSeats} companion seat${listing.companionSeats === 1 ? '' : 's'} in all`,
      field(`choose at most ${most}`),
    );
  return null;
}
