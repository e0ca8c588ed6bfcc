import { textProblem } from '../rules/json-limits.js';
import { fromText, z } from './zod.js';
import { EventCardSchema } from './cards.js';
import { LAYOUT_NAMES } from './seating.js';
import { DEAL_RATINGS, DELIVERY_METHODS } from './commerce-terms.js';

export {
  DELIVERY_METHODS,
  DELIVERY_LABELS,
  DEAL_RATINGS,
  type DealRatingName,
  DEAL_RATING_LABELS,
  DEAL_RATING_LIMITS,
  DEAL_MIN_COMPARABLE,
  COMPANIONS_PER_SPACE,
  companionsAllowed,
  LISTINGS_FRESH_MS,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
} from './commerce-terms.js';

/** Listings, carts, checkout and orders (RULES 3.5, 10.3, 10.8), as the API speaks them. */

export const DeliveryMethodSchema = z.enum(DELIVERY_METHODS);

/** The highest price a ticket may be listed at, and so the highest a listings filter may name, in US dollars. */
const MAX_TICKET_PRICE = 100_000;

/**
 * An operator's own ticket group, as `Listing.jsonl` in an imported catalog holds it (the demo generates its
 * listings instead). `listing_id` is the event's id times 1,000 plus the group's number (0–999), so a listing's
 * id alone finds its event, and `id` is that number as a string, as for the other catalog documents.
 */
export const ListingDocumentSchema = z
  .object({
    id: z.string().min(1).max(64),
    listing_id: z.number().int().positive(),
    event_id: z.number().int().positive(),
    section: z.string().min(1).max(60),
    row: z.string().max(20),
    /** Seats the seller lists, 1–12. */
    quantity: z.number().int().min(1).max(12),
    /** Before fees, in US dollars. */
    price_per_ticket: z.number().positive().max(MAX_TICKET_PRICE),
    /** The seller sells in pairs only (even quantities). */
    pairs_only: z.boolean(),
    delivery_method: DeliveryMethodSchema,
    seller_notes: z.string().max(300),
    /** When the seller has the tickets (YYYY-MM-DD). */
    in_hand_date: z.iso.date(),
    /** Wheelchair-accessible seats; left out, read from the seller's notes ("Wheelchair accessible"). */
    accessible: z.boolean().optional(),
    /** A view blocked in part; left out, read from the seller's notes ("Obstructed view", "Limited view"). */
    obstructed_view: z.boolean().optional(),
    /**
     * RULES 20.2: the price printed on the ticket, per ticket in US dollars, when the seller gives it (required for an
     * event in the United Kingdom: Consumer Rights Act 2015 s.90).
     */
    face_value: z.number().positive().max(MAX_TICKET_PRICE).optional(),
    /**
     * RULES 20.3: false when the seller neither holds the tickets nor has a contract to get them at a set price (a
     * New York §25.10 notice is then shown and confirmed); left out, the seller holds them.
     */
    tickets_held: z.boolean().optional(),
    /** An age limit ("18+ only, valid photo ID required"); left out, read from the seller's notes. */
    age_restriction: z.string().min(1).max(100).optional(),
    /**
     * Companion seats beside an accessible listing's wheelchair spaces, sold only with a space (RULES 10.16);
     * left out, none.
     */
    companion_seats: z.number().int().min(0).max(12).optional(),
  })
  .strict()
  .refine((l) => (l.companion_seats ?? 0) <= l.quantity, {
    message: 'companion_seats must be at most quantity (one companion seat per wheelchair space)',
    path: ['companion_seats'],
  })
  .refine((l) => !(l.accessible === false && (l.companion_seats ?? 0) > 0), {
    message: 'companion_seats are for accessible listings only',
    path: ['companion_seats'],
  })
  .refine((l) => Math.floor(l.listing_id / 1000) === l.event_id, {
    message: 'listing_id must be the event_id times 1000 plus the group number (0–999)',
    path: ['listing_id'],
  })
  .refine((l) => l.id === String(l.listing_id), { message: 'id must be the listing_id as a string', path: ['id'] });
export type ListingDocument = z.infer<typeof ListingDocumentSchema>;

export const DealRatingSchema = z.object({
  rating: z.enum(DEAL_RATINGS),
  /** The median all-in price per ticket it was compared with. */
  median: z.number().positive(),
  /** What the median is of: a level's name, or "the whole event". */
  comparedWith: z.string(),
  /** How many listings that median is of (this one included). */
  comparables: z.number().int().positive(),
});
export type DealRating = z.infer<typeof DealRatingSchema>;

/** One seller's ticket group for an event. Prices in US dollars. */
export const ListingSchema = z.object({
  id: z.number().int().positive(),
  eventId: z.number().int().positive(),
  section: z.string(),
  row: z.string(),
  /** Tickets a shopper can take now (listed minus held minus sold). */
  quantityAvailable: z.number().int().min(0),
  /** The quantities the seller allows a buyer to take (no single seat left behind). */
  splits: z.array(z.number().int().positive()),
  pricePerTicket: z.number().positive(),
  /**
   * Price per ticket with every mandatory fee included: what is shown first, and what the cards' "From" is the
   * lowest of (`shared/rules/pricing.ts`). Shipping, when the tickets are mailed, is outside it.
   */
  allInPricePerTicket: z.number().positive(),
  /** The service fee inside the all-in price, per ticket. */
  serviceFeePerTicket: z.number().min(0),
  /** Shipping per ticket, added on top of the all-in price in the cart (mailed tickets only; else 0). */
  shippingPerTicket: z.number().min(0),
  deliveryMethod: DeliveryMethodSchema,
  sellerNotes: z.string(),
  /** When the seller has the tickets (ISO date). */
  inHandDate: z.string(),
  /** Wheelchair-accessible seats. */
  accessible: z.boolean(),
  /** The view of the stage or field is blocked in part. */
  obstructedView: z.boolean(),
  /** RULES 20.2: the price printed on the ticket, per ticket, when the seller gives it; else null. */
  faceValue: z.number().positive().nullable(),
  /** RULES 20.3: false when the seller does not yet have the tickets (nor a contract to get them at a set price). */
  ticketsHeld: z.boolean(),
  /** RULES 20.2: an age limit on entry, in the seller's or venue's words; else null. */
  ageRestriction: z.string().nullable(),
  /**
   * Companion seats left beside an accessible listing's wheelchair spaces (0 for other listings): sold only with a
   * space, at most one per space, at the same price per ticket (RULES 10.16).
   */
  companionSeats: z.number().int().min(0),
  /** How its all-in price compares with comparable listings of the same event (`DEAL_RATING_LIMITS`). */
  dealRating: DealRatingSchema,
});
export type Listing = z.infer<typeof ListingSchema>;

/**
 * RULES 20.1: what a listing tells a shopper before they pay, kept with the order as it was when they paid
 * (`shared/rules/disclosures.ts` turns it into the lines every page shows).
 */
export const ListingTermsSchema = ListingSchema.pick({
  section: true,
  row: true,
  deliveryMethod: true,
  inHandDate: true,
  sellerNotes: true,
  accessible: true,
  obstructedView: true,
  faceValue: true,
  ticketsHeld: true,
  ageRestriction: true,
});
export type ListingTerms = z.infer<typeof ListingTermsSchema>;

export const ListingsQuerySchema = z.object({
  quantity: fromText(
    z
      .number({ error: 'quantity must be a number' })
      .int('quantity must be a whole number')
      .min(1, 'quantity starts at 1')
      .max(20, 'quantity must be at most 20'),
  ).optional(),
  sort: z.enum(['price_asc', 'price_desc', 'section']).default('price_asc'),
  minPrice: fromText(
    z
      .number({ error: 'minPrice must be a number' })
      .min(0, 'minPrice starts at 0')
      .max(MAX_TICKET_PRICE, `minPrice must be at most ${MAX_TICKET_PRICE}`),
  ).optional(),
  maxPrice: fromText(
    z
      .number({ error: 'maxPrice must be a number' })
      .min(0, 'maxPrice starts at 0')
      .max(MAX_TICKET_PRICE, `maxPrice must be at most ${MAX_TICKET_PRICE}`),
  ).optional(),
  /**
   * Accessible seating only (`accessible=1` or `true`, RULES 10.15); a rendered page passes the client's filter, where
   * it is a boolean.
   */
  accessible: z
    .union([z.boolean(), z.enum(['1', 'true', '0', 'false']).transform((v) => v === '1' || v === 'true')], {
      error: 'accessible must be 1 or true (or 0 or false)',
    })
    .optional(),
});

/** Fee breakdown behind the all-in price, one click away. */
export const FeesSchema = z.object({ serviceFeeRate: z.number(), fulfillmentFeePerTicket: z.number() });

/**
 * Whether the event's tickets are sold: not once it has started or when it is cancelled (with a sentence for
 * the shopper), and an event with no date yet sells with its date to be announced.
 */
export const SaleStateSchema = z.discriminatedUnion('onSale', [
  z.object({ onSale: z.literal(true), dateToBeAnnounced: z.boolean() }),
  z.object({ onSale: z.literal(false), code: z.enum(['event_started', 'event_cancelled']), message: z.string() }),
]);
export type SaleState = z.infer<typeof SaleStateSchema>;

/** Which seat map the event's venue is drawn with (`shared/schemas/seating.ts`). */
export const SeatMapInfoSchema = z.object({ layout: z.enum(LAYOUT_NAMES) });

/** The filter an answer was made for, as the server read it: a list is labelled with its own answer's filter. */
export const ListingsAnsweredSchema = z.object({
  quantity: z.number().int().positive().optional(),
  sort: z.enum(['price_asc', 'price_desc', 'section']),
  minPrice: z.number().min(0).optional(),
  maxPrice: z.number().min(0).optional(),
  /** Accessible seating only (RULES 10.15). */
  accessible: z.boolean().optional(),
});

export const ListingsResponseSchema = z.object({
  eventId: z.number().int(),
  seatMap: SeatMapInfoSchema,
  listings: z.array(ListingSchema),
  fees: FeesSchema,
  sale: SaleStateSchema,
  query: ListingsAnsweredSchema.optional(),
});

/** One listing with its event (the ticket page), and the same fee breakdown. */
export const ListingDetailSchema = z.object({ listing: ListingSchema, event: EventCardSchema, fees: FeesSchema });

export const LineItemSchema = z.object({ key: z.string(), value: z.string() });

export const CreateCartSchema = z.object({
  listingId: z
    .number({ error: 'listingId must be a number' })
    .int('listingId must be a whole number')
    .positive('listingId must be a listing id, 1 or more'),
  quantity: z
    .number({ error: 'quantity must be a number' })
    .int('quantity must be a whole number')
    .min(1, 'quantity starts at 1')
    .max(20, 'quantity must be at most 20'),
  /** Companion seats taken with the wheelchair spaces of an accessible listing (RULES 10.16). */
  companions: z
    .number({ error: 'companions must be a number' })
    .int('companions must be a whole number')
    .min(0, 'companions cannot be negative')
    .max(20, 'companions must be at most 20')
    .optional(),
});

export const CartSchema = z.object({
  id: z.string().uuid(),
  eventId: z.number().int(),
  listingId: z.number().int(),
  /** Every ticket held: the listing's seats and any companion seats. */
  quantitySelected: z.number().int(),
  /** How many of those are companion seats (RULES 10.16). */
  companions: z.number().int().min(0).default(0),
  totalPrice: z.object({ value: z.number() }),
  /** RULES 3.5: key and value; the "Service Fee" line carries a dollar-prefixed amount. */
  lineItems: z.array(LineItemSchema),
  /** The hold on these tickets ends then; shown to the shopper as a countdown. */
  expiresAt: z.string(),
  status: z.enum(['active', 'expired', 'released', 'purchased']),
  /** The promo code these figures apply (asked for with `?promoCode=`), null for none. */
  promoCode: z.string().nullable(),
  /** RULES 20.3: false when the seller does not have these tickets yet: the checkout asks to confirm the notice. */
  ticketsHeld: z.boolean().default(true),
});
export type Cart = z.infer<typeof CartSchema>;

/** `GET /api/cart/:id?promoCode=FF20`: the cart priced with a promo code, before paying. */
export const CartQuerySchema = z.object({
  promoCode: z.string().trim().max(32, 'promoCode must be at most 32 characters').optional(),
});

/**
 * Text a person typed: no control characters (a NUL cannot even be stored) and no half of a surrogate pair
 * (not a character at all), so what is kept and printed on tickets is what was meant.
 */
const typed = (schema: z.ZodString, what: string) =>
  schema.refine(
    // Control characters, and text no store keeps (a lone surrogate, RULES 14.15).
    (v) => !/\p{Cc}/u.test(v) && textProblem(v) === undefined,
    `${what} contains characters that cannot be used`,
  );

/** RULES 10.3: billing address, each field checked with a message a shopper can act on. */
export const BillingAddressSchema = z
  .object({
    name: typed(z.string().trim().min(2, 'Enter the cardholder’s full name').max(100, 'Name is too long'), 'Name'),
    address1: typed(
      z.string().trim().min(3, 'Enter a street address').max(120, 'Street address is too long'),
      'Street address',
    ),
    city: typed(z.string().trim().min(2, 'Enter a city').max(80, 'City is too long'), 'City'),
    state: typed(z.string().trim().min(2, 'Enter a state or region').max(40, 'State is too long'), 'State'),
    countryCode: z
      .string()
      .trim()
      .regex(/^[A-Z]{2}$/, 'Choose a country (two-letter code)'),
    postalCode: typed(
      z.string().trim().min(3, 'Enter a postal code').max(12, 'Postal code is too long'),
      'Postal code',
    ),
    phoneNumber: z
      .string()
      .trim()
      .regex(/^\+?[0-9 ()-]{7,20}$/, 'Enter a phone number with 7 to 15 digits'),
  })
  .superRefine((a, ctx) => {
    if (a.countryCode === 'US' && !/^\d{5}(-\d{4})?$/.test(a.postalCode)) {
      ctx.addIssue({ code: 'custom', path: ['postalCode'], message: 'Enter a 5-digit ZIP code' });
    }
    const digits = a.phoneNumber.replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15)
      ctx.addIssue({ code: 'custom', path: ['phoneNumber'], message: 'Enter a phone number with 7 to 15 digits' });
  });
export type BillingAddress = z.infer<typeof BillingAddressSchema>;

export const PaymentSchema = z.discriminatedUnion('method', [
  z.object({
    method: z.literal('card'),
    cardNumber: z.string().regex(/^[0-9 ]{12,23}$/, 'Enter the card number'),
    expMonth: z.number().int().min(1, 'Enter a valid month').max(12, 'Enter a valid month'),
    expYear: z.number().int().min(2000).max(2100),
    cvc: z.string().regex(/^\d{3,4}$/, 'Enter the 3 or 4 digit security code'),
  }),
  z.object({ method: z.literal('applepay'), token: z.string().min(1).max(4096) }),
]);
export type Payment = z.infer<typeof PaymentSchema>;

export const CheckoutSchema = z.object({
  cartId: z.string().uuid('cartId must be a cart id'),
  billingAddress: BillingAddressSchema,
  promoCode: z.string().trim().max(32).optional(),
  /**
   * The total the shopper was shown (the cart priced with this promo code). When it is sent and the order
   * would cost anything else, the checkout is refused with 409 `price_changed` and nothing is charged.
   */
  expectedTotal: z.number({ error: 'expectedTotal must be an amount in dollars' }).min(0).max(10_000_000).optional(),
  payment: PaymentSchema,
  email: z.email('Enter an email address for your tickets').max(200),
  /**
   * RULES 20.3: the shopper confirms having read the notice that the seller does not yet have the tickets; required
   * (true) for such a listing, ignored for any other.
   */
  notHeldNoticeRead: z.boolean({ error: 'notHeldNoticeRead must be true or false' }).optional(),
});
export type CheckoutRequest = z.infer<typeof CheckoutSchema>;

export const ORDER_STATUSES = [
  'reserved',
  'pending_seller_confirmation',
  'confirmed',
  'delivered',
  'completed',
  'rejected',
  'expired',
  'cancelled',
  'refunded',
] as const;
export const OrderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatusSchema>;

/** How each status reads to a shopper (the order page and the Order Status row of the detail). */
export const ORDER_STATUS_LABELS: Readonly<Record<OrderStatus, string>> = {
  reserved: 'Reserved',
  pending_seller_confirmation: 'Awaiting Seller Confirmation',
  confirmed: 'Confirmed',
  delivered: 'Delivered',
  completed: 'Completed',
  rejected: 'Rejected by Seller',
  expired: 'Expired',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

/** RULES 10.8, order detail: a list of typed entries. */
export const OrderDetailEntrySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('date'), month: z.string(), day: z.string(), time: z.string() }),
  z.object({ type: z.literal('header'), title: z.string() }),
  z.object({ type: z.literal('row'), title: z.string(), value: z.string() }),
  z.object({ type: z.literal('rowSubtitle'), title: z.string(), subtitle: z.string() }),
]);

/** One ticket of an order, as the order page shows it (see server/commerce/domain/delivery.ts). */
export const TICKET_STATES = ['awaiting_seller', 'scheduled', 'ready', 'used', 'void'] as const;
export const OrderTicketSchema = z.object({
  id: z.string(),
  section: z.string(),
  row: z.string(),
  /** Null for general admission. */
  seat: z.number().int().positive().nullable(),
  state: z.enum(TICKET_STATES),
  /** A companion seat bought with a wheelchair space (RULES 10.16). */
  companion: z.boolean().default(false),
  /** What the state means for this delivery method, in a sentence. */
  stateText: z.string(),
});
export type OrderTicket = z.infer<typeof OrderTicketSchema>;

/** How and when the order's tickets reach the buyer. */
export const OrderDeliverySchema = z.object({
  method: DeliveryMethodSchema,
  /** The venue-local day the tickets are ready (ISO date); null while the event's date is not set. */
  readyBy: z.string().nullable(),
  /** The in-hand rule, in a sentence. */
  rule: z.string(),
  /** The eTickets' PDF can be fetched now (`GET /api/orders/:id/tickets.pdf`). */
  downloadable: z.boolean(),
});

/** RULES 19.1, 19.3: money returned (or on its way back) to the buyer, as the order page shows it. */
export const OrderRefundSchema = z.object({
  amount: z.object({ value: z.number() }),
  status: z.enum(['pending', 'refunded', 'failed']),
  /** Why, as the buyer reads it. */
  reason: z.string(),
  requestedAt: z.string(),
  refundedAt: z.string().nullable(),
});
export type OrderRefund = z.infer<typeof OrderRefundSchema>;

export const OrderSchema = z.object({
  id: z.string(),
  accessCode: z.string().optional(),
  status: OrderStatusSchema,
  eventId: z.number().int(),
  eventName: z.string(),
  quantity: z.number().int(),
  totalPrice: z.object({ value: z.number() }),
  lineItems: z.array(LineItemSchema),
  detail: z.array(OrderDetailEntrySchema),
  timeline: z.array(z.object({ status: OrderStatusSchema, at: z.string(), note: z.string() })),
  tickets: z.array(OrderTicketSchema).default([]),
  delivery: OrderDeliverySchema.optional(),
  refunds: z.array(OrderRefundSchema).default([]),
  /** RULES 20.1: the listing's terms as they were when the order was paid (null for orders older than them). */
  terms: ListingTermsSchema.nullable().default(null),
  /** RULES 19.2: a full refund the buyer may ask for (the event moved), and until when. */
  refundOffer: z
    .object({ until: z.string(), amount: z.object({ value: z.number() }) })
    .nullable()
    .default(null),
  /** RULES 9.8: the purchase tracking payload (95 × total under phet). */
  tracking: z.object({ event: z.literal('purchase'), phet: z.number() }).optional(),
  /** RULES 21.3: when the buyer's personal details were erased at their request; null (or absent) while kept. */
  erasedAt: z.string().nullable().optional(),
});
export type Order = z.infer<typeof OrderSchema>;

/** Stripe's limit on a key's length. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
