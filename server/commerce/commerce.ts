import { randomBytes } from 'node:crypto';
import type { Logger } from '../../shared/logger.js';
import { IdempotencyStore } from '../http/idempotency.js';
import type { SearchEngine } from '../search/search-engine.js';
import type { Sql } from '../store/sql.js';
import { CheckoutService } from './checkout-service.js';
import type { PaymentProvider } from './domain/payments.js';
import type { PurchaseLimits } from './domain/purchase-limits.js';
import { TicketBarcodes } from './domain/ticket-barcode.js';
import { HoldService } from './hold-service.js';
import { HoldStore } from './hold-store.js';
import { InventoryStore } from './inventory-store.js';
import { ListingCatalog } from './listing-catalog.js';
import { ListingService } from './listing-service.js';
import { OrderService } from './order-service.js';
import { OrderStore } from './order-store.js';
import { PaymentStore } from './payment-store.js';
import { EventChanges } from './event-changes.js';
import { OrderAdmin } from './order-admin.js';
import { OrderMail, OrderMailCodes } from './order-mail.js';
import { RefundService } from './refund-service.js';
import { RefundStore } from './refund-store.js';
import { ScanStore } from './scan-store.js';
import { ScannerService } from './scanner-service.js';
import { SettlementService } from './settlement-service.js';

/** The bytes of the random barcode key a process signs with when it is given none. */
const EPHEMERAL_BARCODE_KEY_BYTES = 32;

export interface CommerceOptions {
  /** The order store (holds, orders, payments, tickets, checkout keys), shared by every node. */
  sql: Sql;
  engine: () => SearchEngine;
  payments: PaymentProvider;
  logger: Logger;
  now?: () => Date;
  sellerDelayMs?: number;
  /** The fair-share limits (tests narrow or widen them). */
  limits?: PurchaseLimits;
  /** Signs and checks ticket barcodes; a random key per process when absent (tests). */
  barcodes?: TicketBarcodes;
  /** The codes order emails carry in their links; a random key per process when absent (tests). */
  mailCodes?: OrderMailCodes;
}

/** The storefront's selling, one service per job. */
export interface Commerce {
  /** The tickets there are to sell and their events (the operator's own listings, when imported). */
  catalog: ListingCatalog;
  listings: ListingService;
  holds: HoldService;
  checkout: CheckoutService;
  /** Payments brought to their end and orders moved on (`tick`, `start`). */
  settlement: SettlementService;
  orders: OrderService;
  scanner: ScannerService;
  /** Money back to buyers: recorded, then made through the processor by any node (`tick`, `start`). */
  refunds: RefundService;
  /** Events that change after sale: their buyers told, refunded when cancelled (`eventsChanged`, `start`). */
  eventChanges: EventChanges;
  /** The operator's refunds and reconciliation. */
  admin: OrderAdmin;
  /** The codes order emails carry in their links. */
  mailCodes: OrderMailCodes;
}

/**
 * Listings, carts (holds), checkout and orders over one order store. Every step that changes what is available
 * goes through the stores' single conditional statements.
 */
export function createCommerce(options: CommerceOptions): Commerce {
  const { sql, engine, logger } = options;
  const now = options.now ?? (() => new Date());
  const barcodes = options.barcodes ?? new TicketBarcodes(new Uint8Array(randomBytes(EPHEMERAL_BARCODE_KEY_BYTES)));
  const inventory = new InventoryStore(sql);
  const orderStore = new OrderStore(sql);
  const holdStore = new HoldStore(sql, orderStore);
  const payments = new PaymentStore(sql);
  // Checkout keys live in the order store's own database, shared by every node like the orders.
  const idempotency = new IdempotencyStore(sql, now);
  const catalog = new ListingCatalog({ inventory, engine, logger });
  const holds = new HoldService({ holds: holdStore, catalog, now, limits: options.limits, idempotency });
  const mailCodes = options.mailCodes ?? new OrderMailCodes(new Uint8Array(randomBytes(EPHEMERAL_BARCODE_KEY_BYTES)));
  // RULES 19.4: each email of an order's life queued in the transaction that decides it.
  const mail = new OrderMail({ sql, catalog, logger, now });
  const settlement = new SettlementService({
    delivered: (tx, order, resolved) => mail.delivered(tx, order, resolved),
    holds: holdStore,
    payments,
    orders: orderStore,
    processor: options.payments,
    catalog,
    idempotency,
    logger,
    now,
    sellerDelayMs: options.sellerDelayMs,
  });
  const refundStore = new RefundStore(sql);
  const refunds = new RefundService({
    refunds: refundStore,
    payments,
    processor: options.payments,
    logger,
    now,
    notice: mail.refunded,
  });
  const eventChanges = new EventChanges({ sql, catalog, refunds, logger, now, notice: mail.changed });
  return {
    catalog,
    refunds,
    eventChanges,
    admin: new OrderAdmin({ refunds, store: refundStore, processor: options.payments }),
    listings: new ListingService({ catalog, inventory, now }),
    holds,
    checkout: new CheckoutService({
      carts: holds,
      holds: holdStore,
      payments,
      orders: orderStore,
      processor: options.payments,
      settlement,
      catalog,
      idempotency,
      logger,
      now,
      placed: (tx, order, resolved) => mail.placed(tx, order, resolved),
    }),
    settlement,
    orders: new OrderService({
      orders: orderStore,
      refunds: refundStore,
      refunding: refunds,
      catalog,
      barcodes,
      now,
      mailCodes,
    }),
    mailCodes,
    scanner: new ScannerService({ scans: new ScanStore(sql), catalog, barcodes, now }),
  };
}
