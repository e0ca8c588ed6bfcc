import type { DELIVERY_METHODS } from '../schemas/commerce.js';
import type { ErrorLogger } from '../logger.js';
import { FF20_DISCOUNT_FACTOR, FF20_PROMO_CODE } from './constants.js';
import { formatPrice } from './format.js';

/**
 * The all-in price: what a shopper pays per ticket, every mandatory fee included. The US FTC rule on unfair or
 * deceptive fees (16 CFR Part 464, in force since 12 May 2025) requires live-event ticket sellers to show this
 * total price first and more prominently than any other; it lets shipping charges (sending physical goods by
 * mail) and government charges be left out of it as long as they are disclosed before the shopper pays. So the
 * all-in price is the ticket price plus the service fee; mailing paper tickets is shown beside it and added in
 * the cart. Every price a shopper sees (cards, the event page, listings, the seat map, the cart) comes from here.
 */

type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

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

/** A dollar amount in whole cents. */
export function toCents(amount: number): number {
  return Math.round(amount * 100);
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

/**
 * RULES 3.4: promo FF20 multiplies by 0.8 (20% off). It applies to the ticket subtotal only (price × quantity);
 * service fees and delivery are added afterwards at full price, so the discount never reduces a fee. The code
 * is matched case-insensitively; any other code leaves the amount unchanged. Rounded to whole cents.
 */
export function applyPromo(code: string | null | undefined, ticketSubtotal: number): number {
  if (!Number.isFinite(ticketSubtotal) || ticketSubtotal < 0) {
    throw new RangeError(`ticket subtotal must be a finite amount of at least 0, got ${ticketSubtotal}`);
  }
  if ((code ?? '').trim().toUpperCase() !== FF20_PROMO_CODE) return ticketSubtotal;
  return Math.round(toCents(ticketSubtotal) * FF20_DISCOUNT_FACTOR) / 100;
}

/**
 * Product decision: shipping paper tickets costs $2.50 per ticket. Digital delivery (eTicket, mobile
 * transfer) and will call are free. Shipping is the one charge outside the all-in price (16 CFR 464 lets a
 * shipping charge be disclosed beside it); the listing says it and the cart adds it.
 */
export const FULFILLMENT_FEE_PER_TICKET = 2.5;

export const FULFILLMENT_FEES: Readonly<Record<DeliveryMethod, number>> = {
  eticket: 0,
  mobile_transfer: 0,
  will_call: 0,
  physical_mail: FULFILLMENT_FEE_PER_TICKET,
};

/** The line-item keys of the RULES 3.5 cart ("Service Fee" carries a dollar-prefixed amount). */
export const LINE_ITEM_KEYS = {
  serviceFee: 'Service Fee',
  delivery: 'Delivery',
  promo: `Promo ${FF20_PROMO_CODE}`,
  total: 'Total',
} as const;

/** A promo code other than the known one: the caller answers 400. */
export class PromoCodeError extends Error {
  readonly code = 'invalid_promo_code';
  readonly status = 400;
  constructor(readonly promoCode: string) {
    super(`Promo code ${JSON.stringify(promoCode)} is not valid`);
    this.name = 'PromoCodeError';
  }
}

/** The applied promo code, null for none or blank; an unknown code throws PromoCodeError. */
export function normalizePromoCode(code: string | null | undefined): typeof FF20_PROMO_CODE | null {
  const text = (code ?? '').trim();
  if (text === '') return null;
  if (text.toUpperCase() === FF20_PROMO_CODE) return FF20_PROMO_CODE;
  throw new PromoCodeError(text);
}

export function fulfillmentFeePerTicket(deliveryMethod: DeliveryMethod): number {
  return FULFILLMENT_FEES[deliveryMethod];
}

/** What a listing shows per ticket: the all-in price, the service fee inside it, and shipping beside it. */
export function perTicketPrices(listing: { pricePerTicket: number; deliveryMethod: DeliveryMethod }): {
  allInPricePerTicket: number;
  serviceFeePerTicket: number;
  shippingPerTicket: number;
} {
  return {
    allInPricePerTicket: allInPrice(listing.pricePerTicket),
    serviceFeePerTicket: serviceFeePerTicketCents(priceCents(listing.pricePerTicket)) / 100,
    shippingPerTicket: fulfillmentFeePerTicket(listing.deliveryMethod),
  };
}

/**
 * "$1,234.50", "$12", "-$40" (RULES 3.6: thousands separators). RULES 14.11: a price that cannot be formatted is
 * logged to `logger` when one is given, and shown as it is.
 */
export function formatMoney(dollars: number, logger?: ErrorLogger): string {
  const sign = dollars < 0 ? '-' : '';
  return `${sign}$${String(formatPrice(Math.abs(dollars), logger))}`;
}

export interface QuoteInput {
  pricePerTicket: number;
  quantity: number;
  deliveryMethod: DeliveryMethod;
  promoCode?: string | null;
}

export interface MoneyBreakdown {
  subtotal: number;
  discount: number;
  serviceFee: number;
  fulfillmentFee: number;
  total: number;
}

export interface CartQuote extends MoneyBreakdown {
  promoCode: typeof FF20_PROMO_CODE | null;
  /** The same amounts in cents, as charged and stored. */
  cents: MoneyBreakdown;
  /** RULES 3.5: key and value pairs, in display order. */
  lineItems: { key: string; value: string }[];
}

/**
 * The price of `quantity` tickets. FF20 (RULES 3.4: × 0.8) comes off the ticket subtotal only; the service fee
 * is then taken on the discounted subtotal, and delivery is added at full price. Throws PromoCodeError for an
 * unknown code and RangeError for a bad price or quantity.
 */
export function quoteCart(input: QuoteInput): CartQuote {
  const { quantity, deliveryMethod } = input;
  if (!Number.isInteger(quantity) || quantity < 1)
    throw new RangeError(`quantity must be a whole number of at least 1, got ${quantity}`);
  const unitCents = priceCents(input.pricePerTicket);
  const promoCode = normalizePromoCode(input.promoCode);

  const subtotal = unitCents * quantity;
  const discounted = promoCode ? Math.round(applyPromo(promoCode, subtotal / 100) * 100) : subtotal;
  const discount = subtotal - discounted;
  const serviceFee = serviceFeePerTicketCents(discounted, quantity) * quantity;
  const fulfillmentFee = Math.round(fulfillmentFeePerTicket(deliveryMethod) * 100) * quantity;
  const total = discounted + serviceFee + fulfillmentFee;

  const cents: MoneyBreakdown = { subtotal, discount, serviceFee, fulfillmentFee, total };
  const dollars = (c: number) => c / 100;
  const lineItems = [
    { key: `Tickets (${quantity} × ${formatMoney(dollars(unitCents))})`, value: formatMoney(dollars(subtotal)) },
    { key: LINE_ITEM_KEYS.serviceFee, value: formatMoney(dollars(serviceFee)) },
  ];
  if (fulfillmentFee > 0) lineItems.push({ key: LINE_ITEM_KEYS.delivery, value: formatMoney(dollars(fulfillmentFee)) });
  if (promoCode) lineItems.push({ key: LINE_ITEM_KEYS.promo, value: `-${formatMoney(dollars(discount))}` });
  lineItems.push({ key: LINE_ITEM_KEYS.total, value: formatMoney(dollars(total)) });

  return {
    subtotal: dollars(subtotal),
    discount: dollars(discount),
    serviceFee: dollars(serviceFee),
    fulfillmentFee: dollars(fulfillmentFee),
    total: dollars(total),
    promoCode,
    cents,
    lineItems,
  };
}
