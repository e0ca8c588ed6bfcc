import type { z } from '../../../../shared/schemas/zod.js';
import type { CheckoutRequest, ListingDetailSchema } from '../../../../shared/schemas/commerce.js';
import { IDEMPOTENCY_KEY_HEADER } from '../../../../shared/schemas/commerce-terms.js';
import { callPath, type ListingsCallFilter } from '../../../../shared/schemas/api-calls.js';
import { apiHeaders, ApiError, loadingSchema, type AnswerSchema } from '../../lib/api.js';
import { ensureGuestSession } from '../../lib/session.js';

export type ListingDetail = z.infer<typeof ListingDetailSchema>;

type BuyingSchemas = typeof import('./buying-schemas.js');
/** A buying answer's schema, loaded with the first call that needs it (`buying-schemas.ts`). */
const schemaOf =
  <K extends keyof BuyingSchemas>(name: K) =>
  (): Promise<BuyingSchemas[K]> =>
    import('./buying-schemas.js').then((schemas) => schemas[name]);

export const SORTS = ['price_asc', 'price_desc', 'section'] as const;
export type ListingSort = (typeof SORTS)[number];

export interface FieldIssue {
  path: string;
  message: string;
}

/** An API error that keeps the field issues of a 400, which checkout maps onto its fields. */
export class BuyingApiError extends ApiError {
  constructor(
    status: number,
    code: string,
    message: string,
    readonly details: FieldIssue[],
  ) {
    super(status, code, message);
    this.name = 'BuyingApiError';
  }
}

function readDetails(details: unknown): FieldIssue[] {
  if (!Array.isArray(details)) return [];
  return details.flatMap((d: unknown) => {
    const item = d as { path?: unknown; message?: unknown } | null;
    if (!item || typeof item.message !== 'string') return [];
    const path = Array.isArray(item.path) ? item.path.join('.') : typeof item.path === 'string' ? item.path : '';
    return [{ path, message: item.message }];
  });
}

async function request<S extends z.ZodType>(
  path: string,
  schema: AnswerSchema<S> | null,
  init: RequestInit & { guest?: boolean; extraHeaders?: Record<string, string> } = {},
): Promise<z.output<S>> {
  const { guest = false, extraHeaders, ...rest } = init;
  const parser = schema === null ? null : loadingSchema(schema);
  // Carts and orders belong to the guest who made them (RULES 1.10): wait for the token rather than call without it.
  if (guest) await ensureGuestSession();
  const res = await fetch(path, { ...rest, headers: { ...apiHeaders(true), ...extraHeaders } });
  if (res.status === 204 || parser === null) {
    if (!res.ok) throw new BuyingApiError(res.status, 'http_error', `${res.status} ${res.statusText}`, []);
    return undefined as z.output<S>;
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const error = (body as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
    throw new BuyingApiError(
      res.status,
      error?.code ?? 'http_error',
      error?.message ?? `${res.status} ${res.statusText}`,
      readDetails(error?.details),
    );
  }
  return (await parser).parse(body);
}

export const buyingApi = {
  event: (slug: string, signal?: AbortSignal) =>
    request(callPath({ call: 'event', slug }), schemaOf('EventPageSchema'), { signal }),
  listings: (slug: string, filter: ListingsCallFilter, signal?: AbortSignal) =>
    request(callPath({ call: 'listings', slug, filter }), schemaOf('ListingsResponseSchema'), { signal }),
  listing: (id: number, signal?: AbortSignal) =>
    request(`/api/listings/${id}`, schemaOf('ListingDetailSchema'), { signal }),
  /** RULES 8.1: how many more tickets of the event this shopper may hold or buy (their own answer, never cached). */
  purchaseAllowance: (eventId: number, signal?: AbortSignal) =>
    request(`/api/purchase-limits?eventId=${eventId}`, schemaOf('PurchaseAllowanceSchema'), { signal, guest: true }),
  /**
   * Holds `quantity` seats, and with an accessible listing's spaces `companions` companion seats (RULES 10.16); the
   * key makes its retries safe (see cart-attempt.ts).
   */
  createCart: (listingId: number, quantity: number, companions: number, idempotencyKey: string) =>
    request('/api/cart', schemaOf('CartSchema'), {
      method: 'POST',
      body: JSON.stringify(companions > 0 ? { listingId, quantity, companions } : { listingId, quantity }),
      guest: true,
      extraHeaders: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
    }),
  /** The cart, priced with a promo code when one is given (an unknown code is a 400 `invalid_promo_code`). */
  cart: (id: string, signal?: AbortSignal, promoCode?: string) =>
    request(
      `/api/cart/${encodeURIComponent(id)}${promoCode ? `?promoCode=${encodeURIComponent(promoCode)}` : ''}`,
      schemaOf('CartSchema'),
      { signal, guest: true },
    ),
  releaseCart: (id: string) => request(`/api/cart/${encodeURIComponent(id)}`, null, { method: 'DELETE', guest: true }),
  /** One checkout attempt; the key makes its retries safe (see checkout-attempt.ts). */
  checkout: (body: CheckoutRequest, idempotencyKey: string) =>
    request('/api/checkout', schemaOf('OrderSchema'), {
      method: 'POST',
      body: JSON.stringify(body),
      guest: true,
      extraHeaders: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
    }),
  order: (id: string, code: string | null, signal?: AbortSignal) =>
    request(
      `/api/orders/${encodeURIComponent(id)}${code ? `?code=${encodeURIComponent(code)}` : ''}`,
      schemaOf('OrderSchema'),
      {
        signal,
        guest: true,
      },
    ),
  /**
   * RULES 19.2: asks for the full refund a moved event offers, with the same access as the order; the order as it then
   * stands (called off, its refund on its way). A 409 says why there is nothing to ask for.
   */
  requestRefund: (id: string, code: string | null) =>
    request(
      `/api/orders/${encodeURIComponent(id)}/refund${code ? `?code=${encodeURIComponent(code)}` : ''}`,
      schemaOf('OrderSchema'),
      { method: 'POST', guest: true },
    ),
  /** The order's eTickets as a PDF, with the same access as the order (the guest token, or the access code). */
  ticketsPdf: async (id: string, code: string | null): Promise<Blob> => {
    await ensureGuestSession();
    const res = await fetch(
      `/api/orders/${encodeURIComponent(id)}/tickets.pdf${code ? `?code=${encodeURIComponent(code)}` : ''}`,
      { headers: apiHeaders(true) },
    );
    if (!res.ok) {
      const error = ((await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null)
        ?.error;
      throw new BuyingApiError(
        res.status,
        error?.code ?? 'http_error',
        error?.message ?? `${res.status} ${res.statusText}`,
        [],
      );
    }
    return res.blob();
  },
};
