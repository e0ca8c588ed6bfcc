import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { idFromText } from '../../shared/schemas/zod.js';
import { operatorsOnly } from '../http/security.js';
import { ORDER_ID, OperatorRefundSchema, type OrderAdmin } from './order-admin.js';
import type { RefundRow } from './refund-store.js';
import { jsonBody } from '../http/json-body.js';

const OrderParamSchema = z.object({
  id: z.string().regex(ORDER_ID, 'id must be an order id such as ORD-AB12CD34EF'),
});
const ReconcileQuerySchema = z.object({
  event: idFromText('event').optional(),
});

/** A refund as operators see it. */
export function refundJson(r: RefundRow) {
  return {
    id: r.id,
    order: r.order_id,
    amount: r.amount_cents / 100,
    full: r.full_refund,
    reason: r.reason,
    note: r.note,
    requestedBy: r.requested_by,
    status: r.status,
    processorRefund: r.processor_refund_id,
    lastError: r.last_error,
    requestedAt: r.created_at,
    refundedAt: r.refunded_at,
  };
}

/**
 * The operators' order API (RULES 19.3, 19.5), behind `CATALOG_ADMIN_KEY`: `POST /orders/:id/refunds
 * {amount?, reason}` records a refund (202; made within seconds by any node), `GET /orders/:id/refunds` lists
 * an order's, and `GET /reconcile[?event=]` compares charged, refunded and net per event with the processor's
 * records.
 */
export function orderAdminRoutes(admin: OrderAdmin, adminKey: string, limiters: RequestHandler[]): Router {
  const router = Router();
  const guard = [...limiters, operatorsOnly(adminKey)];
  const json = jsonBody({ limit: '16kb' });

  router.post('/orders/:id/refunds', ...guard, ...json, async (req, res) => {
    const { id } = OrderParamSchema.parse(req.params);
    const input = OperatorRefundSchema.parse(req.body ?? {});
    const refund = await admin.refund(id, input);
    res
      .status(202)
      .set('Cache-Control', 'no-store')
      .json({ refund: refundJson(refund) });
  });

  router.get('/orders/:id/refunds', ...guard, async (req, res) => {
    const { id } = OrderParamSchema.parse(req.params);
    res.set('Cache-Control', 'no-store').json({ refunds: (await admin.refundsOf(id)).map(refundJson) });
  });

  router.get('/reconcile', ...guard, async (req, res) => {
    const { event } = ReconcileQuerySchema.parse(req.query);
    res.set('Cache-Control', 'no-store').json({ events: await admin.reconcile(event) });
  });
  return router;
}
