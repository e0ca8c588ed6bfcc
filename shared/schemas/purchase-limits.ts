import { idFromText, z } from './zod.js';

/**
 * RULES 8.1: what one shopper may still hold or buy of an event, said before they meet the limit
 * (`GET /api/purchase-limits?eventId=N`, the shopper's own, never cached).
 */
export const PurchaseAllowanceSchema = z.object({
  eventId: z.number().int().positive(),
  /** Tickets of this event one shopper may hold or buy, and what this shopper already holds or bought. */
  perShopper: z.object({ limit: z.number().int().min(0), used: z.number().int().min(0) }),
  /** The same for every shopper on the client's network (address) together. */
  perNetwork: z.object({ limit: z.number().int().min(0), used: z.number().int().min(0) }),
  /** Tickets this shopper may add now: the smaller of what is left of either limit (0 when there are no carts). */
  left: z.number().int().min(0),
  /** Open carts (any event) this shopper may still start; none left means no tickets can be added just now. */
  cartsLeft: z.number().int().min(0),
});
export type PurchaseAllowance = z.infer<typeof PurchaseAllowanceSchema>;

export const PurchaseLimitsQuerySchema = z.object({
  eventId: idFromText('eventId'),
});
