import { DELIVERY_METHODS } from '../../../shared/schemas/commerce.js';
import { allInPrice, priceCents, serviceFeePerTicketCents } from '../../../shared/rules/all-in-price.js';
import { applyPromo } from '../../../shared/rules/commerce.js';
import { FF20_PROMO_CODE } from '../../../shared/rules/constants.js';
import { formatPrice } from '../../../shared/rules/format.js';

type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

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

/** The line-item keys of spec §3's cart ("Service Fee" carries a dollar-prefixed amount). */
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

/** "$1,234.50", "$12", "-$40" (spec §5 thousands separators). */
export function formatMoney(dollars: number): string {
  const sign = dollars < 0 ? '-' : '';
  return `${sign}$${String(formatPrice(Math.abs(dollars)))}`;
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
  /** Spec §3: key and value pairs, in display order. */
  lineItems: { key: string; value: string }[];
}

/**
 * The price of `quantity` tickets. FF20 (spec §9: × 0.8) comes off the ticket subtotal only; the service fee
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
