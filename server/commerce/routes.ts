import { Router, type Request } from 'express';
import { z } from 'zod';
import { idFromText } from '../../shared/schemas/zod.js';
import {
  CartQuerySchema,
  CheckoutSchema,
  CreateCartSchema,
  ListingsQuerySchema,
} from '../../shared/schemas/commerce.js';
import { SlugParamsSchema } from '../../shared/schemas/entities.js';
import { PurchaseLimitsQuerySchema } from '../../shared/schemas/purchase-limits.js';
import { idempotencyKeyOf, requestFingerprint } from '../http/idempotency.js';
import { IDEMPOTENT_REPLAYED_HEADER } from '../../shared/schemas/commerce.js';
import { clientKeyOf } from '../http/security.js';
import { SessionTokens } from '../sessions/session-tokens.js';
import type { Commerce } from './commerce.js';
import { visitorOf, type EventCollector } from '../analytics/event-collector.js';
import { contextOf } from '../layout/request-context.js';
import type { Order } from '../../shared/schemas/commerce.js';

const IdParamSchema = z.object({ id: idFromText('id') });
const CartParamSchema = z.object({ id: z.string().uuid('id must be a cart id') });
const OrderParamSchema = z.object({
  id: z.string().regex(/^ORD-[A-Z0-9]{10}$/, 'id must be an order id such as ORD-AB12CD34EF'),
});
const OrderQuerySchema = z.object({
  code: z
    .string()
    .regex(/^[A-Z0-9]{20}$/, 'code must be the order’s 20-character access code')
    .optional(),
});

/**
 * The brand an order is placed on, for its emails; undefined when the storefront has no brands loaded yet (the
 * order is then written without one, and its emails use the default brand).
 */
function brandOf(req: Request): string | undefined {
  try {
    return contextOf(req).brand.id;
  } catch {
    return undefined;
  }
}

export function commerceRoutes(commerce: Commerce, tokens: SessionTokens, events?: EventCollector): Router {
  const router = Router();
  const guest = async (authorization: string | undefined) =>
    (await tokens.verify(SessionTokens.bearer(authorization))).guestId;

  router.get('/events/:slug/listings', async (req, res) => {
    const { slug } = SlugParamsSchema.parse(req.params);
    const query = ListingsQuerySchema.parse(req.query);
    res.set('Cache-Control', 'no-cache').json(await commerce.listings.listings(slug, query));
  });

  router.get('/listings/:id', async (req, res) => {
    const { id } = IdParamSchema.parse(req.params);
    res.set('Cache-Control', 'no-cache').json(await commerce.listings.listing(id));
  });

  router.post('/cart', async (req, res) => {
    const guestId = await guest(req.get('authorization'));
    const key = idempotencyKeyOf(req);
    const input = CreateCartSchema.parse(req.body);
    // The client as the rate limits see it: `req.ip` reads it through the same TRUST_PROXY setting.
    const clientKey = clientKeyOf(req.ip ?? req.socket.remoteAddress ?? 'unknown');
    // RULES 10.6: a retry under the same key is answered with the hold its first try made, never a second one.
    const answer = await commerce.holds.createCartOnce({ guestId, clientKey }, input, {
      key,
      fingerprint: requestFingerprint('POST', '/api/cart', req.body),
    });
    if (answer.replayed) res.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    res.status(answer.status).set('Cache-Control', 'no-store').json(answer.body);
  });

  // RULES 8.1: the shopper's own allowance of an event, before they choose a quantity (never shared or kept).
  router.get('/purchase-limits', async (req, res) => {
    const guestId = await guest(req.get('authorization'));
    const { eventId } = PurchaseLimitsQuerySchema.parse(req.query);
    const clientKey = clientKeyOf(req.ip ?? req.socket.remoteAddress ?? 'unknown');
    // What may be bought of an event the catalog does not have is nothing to answer: a 404 naming it. Looked up
    // beside the store's count, not before it.
    const [, allowance] = await Promise.all([
      commerce.catalog.event(eventId),
      commerce.holds.allowance({ guestId, clientKey }, eventId),
    ]);
    res.set('Cache-Control', 'private, no-store').json(allowance);
  });

  router.get('/cart/:id', async (req, res) => {
    const guestId = await guest(req.get('authorization'));
    const { id } = CartParamSchema.parse(req.params);
    const { promoCode } = CartQuerySchema.parse(req.query);
    res.set('Cache-Control', 'no-store').json(await commerce.holds.cart(guestId, id, promoCode));
  });

  router.delete('/cart/:id', async (req, res) => {
    const guestId = await guest(req.get('authorization'));
    const { id } = CartParamSchema.parse(req.params);
    await commerce.holds.releaseCart(guestId, id);
    res.status(204).end();
  });

  router.post('/checkout', async (req, res) => {
    const guestId = await guest(req.get('authorization'));
    const key = idempotencyKeyOf(req);
    const request = CheckoutSchema.parse(req.body);
    const answer = await commerce.checkout.checkoutOnce(
      guestId,
      request,
      { key, fingerprint: requestFingerprint('POST', '/api/checkout', req.body) },
      brandOf(req),
    );
    if (answer.replayed) res.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    // RULES 16.3: the purchase is the server's record of the order it answers, retried, replayed or not; RULES 9.11:
    // recording it never stands between the shopper and the order.
    if (events && answer.status < 300) {
      try {
        const visitor = visitorOf(req.headers, guestId, contextOf(req).brand.id);
        const order = answer.body as Order;
        if (visitor)
          events.purchase(visitor, {
            id: order.id,
            total: order.totalPrice.value,
            placedAt: new Date(order.timeline[0]?.at ?? Date.now()),
          });
      } catch (err) {
        req.log.warn({ err }, 'Something went wrong while recording the purchase event');
      }
    }
    res.status(answer.status).set('Cache-Control', 'no-store').json(answer.body);
  });

  router.get('/orders/:id', async (req, res) => {
    const { id } = OrderParamSchema.parse(req.params);
    const { code } = OrderQuerySchema.parse(req.query);
    let guestId: string | undefined;
    if (req.get('authorization')) guestId = await guest(req.get('authorization'));
    res.set('Cache-Control', 'private, no-store').json(await commerce.orders.order(id, { guestId, code }));
  });

  // RULES 19.2: the buyer's full refund while a change of the event keeps its window open.
  router.post('/orders/:id/refund', async (req, res) => {
    const { id } = OrderParamSchema.parse(req.params);
    const { code } = OrderQuerySchema.parse(req.query);
    let guestId: string | undefined;
    if (req.get('authorization') || !code) guestId = await guest(req.get('authorization'));
    res
      .status(202)
      .set('Cache-Control', 'private, no-store')
      .json(await commerce.orders.requestRefund(id, { guestId, code }));
  });

  router.get('/orders/:id/tickets.pdf', async (req, res) => {
    const { id } = OrderParamSchema.parse(req.params);
    const { code } = OrderQuerySchema.parse(req.query);
    let guestId: string | undefined;
    // Tickets are never sent to a request that names no buyer: without an access code the guest token is required
    // (401).
    if (req.get('authorization') || !code) guestId = await guest(req.get('authorization'));
    const { filename, pdf } = await commerce.orders.ticketsPdf(id, { guestId, code });
    res
      .status(200)
      .set({
        'Cache-Control': 'private, no-store',
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="${filename}"`,
      })
      .send(Buffer.from(pdf));
  });

  return router;
}
