import { RecentActivityItemSchema } from './activity.js';
import { StoredEventSchema } from './analytics-events.js';
import { OrderSchema } from './commerce.js';
import { z } from './zod.js';

/**
 * A shopper's own data (RULES 21): what `GET /api/customers/me/data` answers, the "Do Not Sell or Share" choice of
 * `/api/customers/me/privacy`, and the cookie that tells the browser (and the event intake) of that choice.
 */

export { OPT_OUT_COOKIE, OPT_OUT_COOKIE_MAX_AGE_SECONDS } from '../rules/opt-out-cookie.js';
/** RULES 21.1: at most this many orders, newest first, go in a download. */
export const MAX_DOWNLOADED_ORDERS = 100;
/** RULES 21.1: the file name the browser saves a download under. */
export const DATA_FILE_NAME = 'my-data.json';

export const PrivacyChoiceBodySchema = z.strictObject({
  doNotSellOrShare: z.boolean({ error: 'doNotSellOrShare must be true or false' }),
});

/** RULES 21.4: the guest's choice as stored, and whether this request came with Global Privacy Control. */
export const PrivacyChoiceSchema = z.object({
  /** The choice the guest made on /policies#optout (false when they never chose). */
  doNotSellOrShare: z.boolean(),
  /** When they last chose; null when they never did. */
  chosenAt: z.string().nullable(),
  /** The request carried `Sec-GPC: 1`. */
  globalPrivacyControl: z.boolean(),
  /** Either of the two: nothing is collected or shared for this request. */
  optedOut: z.boolean(),
});
export type PrivacyChoice = z.infer<typeof PrivacyChoiceSchema>;

/** What an order's buyer gave at checkout, in the download; empty once erased. */
export const OrderBuyerSchema = z.object({
  email: z.string(),
  billing: z.record(z.string(), z.string()),
});

/** RULES 21.1: a guest's data, as they download it. */
export const CustomerDataSchema = z.object({
  guestId: z.string(),
  exportedAt: z.string(),
  orders: z.array(OrderSchema.extend({ buyer: OrderBuyerSchema })),
  /** Orders whose event or listing the catalog no longer has: what the store keeps of them. */
  ordersWithoutDetail: z.array(
    z.object({
      id: z.string(),
      status: OrderSchema.shape.status,
      eventId: z.number(),
      quantity: z.number(),
      totalPrice: z.object({ value: z.number() }),
      placedAt: z.string(),
      erasedAt: z.string().nullable(),
      buyer: OrderBuyerSchema,
    }),
  ),
  recentActivity: z.array(RecentActivityItemSchema),
  /** The newest first-party events kept of the guest (at most `limits.events`). */
  events: z.array(StoredEventSchema),
  privacy: PrivacyChoiceSchema.omit({ globalPrivacyControl: true, optedOut: true }).extend({
    erasedAt: z.string().nullable(),
  }),
  /** How many of each the download holds at most. */
  limits: z.object({ orders: z.number().int(), events: z.number().int(), recentActivity: z.number().int() }),
});
export type CustomerData = z.infer<typeof CustomerDataSchema>;
