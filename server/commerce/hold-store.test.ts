import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.js';
import type { Sql } from '../store/sql.js';
import { TEST_STORES } from '../store/test-stores.js';
import { CHECKOUT_CLAIM_SECONDS } from './checkout-claim.js';
import { HoldStore } from './hold-store.js';
import { InventoryStore } from './inventory-store.js';
import { OrderStore } from './order-store.js';
import { PaymentStore } from './payment-store.js';
import type { HoldRow } from './store-rows.js';
import { splitsFor } from './domain/listings.js';
import { MAX_OPEN_CARTS, MAX_TICKETS_PER_EVENT, GUESTS_PER_ADDRESS } from './domain/purchase-limits.js';

describe.each(TEST_STORES)('holds, their checkout claims and the orders they become, on $name', ({ open }) => {
  let sql: Sql;
  let holds: HoldStore;
  let orders: OrderStore;
  let payments: PaymentStore;
  let inventory: InventoryStore;
  beforeAll(async () => {
    sql = await open();
    orders = new OrderStore(sql);
    holds = new HoldStore(sql, orders);
    payments = new PaymentStore(sql);
    inventory = new InventoryStore(sql);
  });
  afterAll(() => sql.close());

  const now = new Date('2026-11-21T12:00:00Z');
  const later = (ms: number) => new Date(now.getTime() + ms);
  const hold = (
    listingId: number,
    quantity: number,
    guest = 'g',
    expiresAt = later(600_000),
    options: { eventId?: number; listed?: number; client?: string; at?: Date } = {},
  ) =>
    holds.createHold({
      id: randomUUID(),
      guestId: guest,
      clientKey: options.client ?? `client-of-${guest}`,
      listing: {
        id: listingId,
        eventId: options.eventId ?? 1,
        listed: options.listed ?? 2,
        splits: splitsFor(options.listed ?? 2),
      },
      quantity,
      pricePerTicketCents: 5000,
      now: options.at ?? now,
      expiresAt,
    });
  const order = (id: string) => ({
    id,
    access_code_hash: 'x',
    status: 'pending_seller_confirmation' as const,
    subtotal_cents: 10000,
    discount_cents: 0,
    service_fee_cents: 1800,
    fulfillment_fee_cents: 0,
    total_cents: 11800,
    promo_code: null,
    email: 'a@b.co',
    billing: {},
    payment_method: 'card',
  });
  /** A payment row waiting for its authorization, as a checkout writes it before asking the processor. */
  const pay = async (holdId: string, at = now) => {
    const id = `pay_${randomUUID()}`;
    await payments.paymentIntent({ id, holdId, amountCents: 11800, now: at });
    return { id, authorizationId: `auth_${id}` };
  };
  const buy = async (h: HoldRow, id: string, at = now) => {
    const attempt = randomUUID();
    const claim = await holds.claimCheckout({ holdId: h.id, guestId: h.guest_id, attempt, now: at });
    if (!('claimed' in claim)) throw new Error(`not claimed: ${JSON.stringify(claim)}`);
    return orders.purchase({
      holdId: h.id,
      guestId: h.guest_id,
      attempt,
      now: at,
      order: order(id),
      history: [],
      payment: await pay(h.id, at),
    });
  };

  it('gives 20 concurrent shoppers of pairs exactly the 4 last tickets, the rest a clear 409', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => hold(1001, 2, `guest-${i}`, undefined, { listed: 4 })),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(2);
    expect(lost).toHaveLength(18);
    for (const l of lost) {
      expect(l.reason).toBeInstanceOf(AppError);
      expect(l.reason).toMatchObject({ status: 409, code: 'not_enough_tickets' });
    }
    expect((await inventory.usage(1)).get(1001)).toEqual({ listed: 4, taken: 4, companionsTaken: 0 });
  });

  it('never strands a single seat, even when one-ticket carts race for the last four', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => hold(1006, 1, `single-${i}`, undefined, { listed: 4 })),
    );
    // 4 → 3 → 2; a third single would leave one seat nobody can buy alone.
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    const codes = results
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => (r.reason as AppError).code);
    expect(new Set(codes)).toEqual(new Set(['invalid_quantity']));
    expect((await inventory.usage(1)).get(1006)).toEqual({ listed: 4, taken: 2, companionsTaken: 0 });
  });

  it('lets one checkout at a time claim a cart, and only the claimer write its order', async () => {
    const a = await hold(1002, 2, 'a');
    const attempts = Array.from({ length: 5 }, () => randomUUID());
    const claims = await Promise.all(
      attempts.map((attempt) => holds.claimCheckout({ holdId: a.id, guestId: 'a', attempt, now })),
    );
    expect(claims.filter((c) => 'claimed' in c)).toHaveLength(1);
    expect(claims.filter((c) => 'busy' in c)).toHaveLength(4);
    const winner = attempts[claims.findIndex((c) => 'claimed' in c)]!;
    const loser = attempts.find((x) => x !== winner)!;
    const losing = await pay(a.id);
    await expect(
      orders.purchase({
        holdId: a.id,
        guestId: 'a',
        attempt: loser,
        now,
        order: order('ORD-LOSER'),
        history: [],
        payment: losing,
      }),
    ).rejects.toMatchObject({ status: 410 });
    // The same attempt (a retry under the same idempotency key) may claim again.
    expect(await holds.claimCheckout({ holdId: a.id, guestId: 'a', attempt: winner, now })).toHaveProperty('claimed');
    const winning = await pay(a.id);
    await orders.purchase({
      holdId: a.id,
      guestId: 'a',
      attempt: winner,
      now,
      order: order('ORD-WINNER'),
      history: [],
      payment: winning,
    });
    expect(await holds.claimCheckout({ holdId: a.id, guestId: 'a', attempt: loser, now })).toMatchObject({
      purchased: { order: { id: 'ORD-WINNER' } },
    });
    const rows = await sql.query<{ held: number; sold: number }>(
      'SELECT held, sold FROM listing_inventory WHERE listing_id = 1002',
    );
    expect(rows[0]).toEqual({ held: 0, sold: 2 });
    expect(await payments.paymentOf(winning.id)).toMatchObject({
      status: 'authorized',
      order_id: 'ORD-WINNER',
      authorization_id: winning.authorizationId,
      amount_cents: 11800,
    });
    expect(await payments.paymentOf(losing.id)).toMatchObject({ status: 'authorizing', order_id: null });
  });

  it('never writes an order whose payment was settled meanwhile, nor voids one whose order is written', async () => {
    const h = await hold(1012, 2, 'late-commit');
    const attempt = randomUUID();
    await holds.claimCheckout({ holdId: h.id, guestId: 'late-commit', attempt, now });
    const voided = await pay(h.id);
    // A settler took this payment for abandoned and began to void it: the commit that arrives after is refused.
    expect(await payments.movePayment(voided.id, 'authorizing', 'voiding', now)).toBe(true);
    await expect(
      orders.purchase({
        holdId: h.id,
        guestId: 'late-commit',
        attempt,
        now,
        order: order('ORD-TOO-LATE'),
        history: [],
        payment: voided,
      }),
    ).rejects.toMatchObject({ status: 409, code: 'payment_interrupted' });
    expect(await orders.order('ORD-TOO-LATE')).toBeNull();
    // The other way round: once the order is written, the payment can no longer be moved to voiding.
    const kept = await pay(h.id);
    await orders.purchase({
      holdId: h.id,
      guestId: 'late-commit',
      attempt,
      now,
      order: order('ORD-IN-TIME'),
      history: [],
      payment: kept,
    });
    expect(await payments.movePayment(kept.id, 'authorizing', 'voiding', now)).toBe(false);
    expect(await payments.paymentOf(kept.id)).toMatchObject({ status: 'authorized', order_id: 'ORD-IN-TIME' });
  });

  it('counts a hold past its expiry under a live checkout claim against the buyer’s share', async () => {
    const h = await hold(1013, 8, 'edge', later(1_000), { eventId: 30, listed: 10 });
    await holds.claimCheckout({ holdId: h.id, guestId: 'edge', attempt: randomUUID(), now: later(900) });
    // Just after the expiry, the claimed hold may still become an order: no second share meanwhile.
    await expect(
      hold(1014, 8, 'edge', later(600_000), { eventId: 30, listed: 10, at: later(2_000) }),
    ).rejects.toMatchObject({ code: 'ticket_limit' });
  });

  it('gives a stale claim to the next checkout, and frees a released one at once', async () => {
    const h = await hold(1010, 2, 'stale');
    expect(await holds.claimCheckout({ holdId: h.id, guestId: 'stale', attempt: randomUUID(), now })).toHaveProperty(
      'claimed',
    );
    expect(
      await holds.claimCheckout({ holdId: h.id, guestId: 'stale', attempt: randomUUID(), now: later(1_000) }),
    ).toEqual({ busy: true });
    const next = randomUUID();
    expect(
      await holds.claimCheckout({
        holdId: h.id,
        guestId: 'stale',
        attempt: next,
        now: later(CHECKOUT_CLAIM_SECONDS * 1000 + 1),
      }),
    ).toHaveProperty('claimed');
    await holds.releaseClaim(h.id, next);
    expect(
      await holds.claimCheckout({
        holdId: h.id,
        guestId: 'stale',
        attempt: randomUUID(),
        now: later(CHECKOUT_CLAIM_SECONDS * 1000 + 2),
      }),
    ).toHaveProperty('claimed');
  });

  it('does not expire a hold under a checkout that claimed it in time', async () => {
    const h = await hold(1011, 2, 'paying', later(1_000));
    const attempt = randomUUID();
    expect(await holds.claimCheckout({ holdId: h.id, guestId: 'paying', attempt, now: later(900) })).toHaveProperty(
      'claimed',
    );
    await holds.releaseExpired(later(2_000));
    const written = await orders.purchase({
      holdId: h.id,
      guestId: 'paying',
      attempt,
      now: later(2_500),
      order: order('ORD-INTIME'),
      history: [],
      payment: await pay(h.id),
    });
    expect(written.id).toBe('ORD-INTIME');
  });

  it('releases an expired hold so the tickets can be held again', async () => {
    await hold(1003, 2, 'slow', later(1_000));
    await expect(hold(1003, 1, 'other')).rejects.toMatchObject({ status: 409 });
    const next = await hold(1003, 2, 'other', later(600_000), { at: later(2_000) });
    expect(next.status).toBe('active');
  });

  it('refuses to claim or purchase an expired hold, leaving no order', async () => {
    const h = await hold(1004, 2, 'late', later(1_000));
    expect(
      await holds.claimCheckout({ holdId: h.id, guestId: 'late', attempt: randomUUID(), now: later(5_000) }),
    ).toEqual({ ended: true });
    await expect(
      orders.purchase({
        holdId: h.id,
        guestId: 'late',
        attempt: randomUUID(),
        now: later(5_000),
        order: order('ORD-LATE'),
        history: [],
        payment: await pay(h.id),
      }),
    ).rejects.toMatchObject({ status: 410 });
    expect(await orders.order('ORD-LATE')).toBeNull();
  });

  it('sweeps expired holds back on sale, several of one listing at once', async () => {
    await hold(1005, 2, 'gone', later(1_000));
    await hold(1020, 2, 'gone-too', later(1_000), { listed: 4 });
    await hold(1020, 2, 'gone-three', later(1_000), { listed: 4 });
    expect((await inventory.usage(1)).get(1020)).toEqual({ listed: 4, taken: 4, companionsTaken: 0 });
    expect(await holds.releaseExpired(later(10_000))).toBeGreaterThanOrEqual(6);
    expect((await inventory.usage(1)).get(1005)).toEqual({ listed: 2, taken: 0, companionsTaken: 0 });
    expect((await inventory.usage(1)).get(1020)).toEqual({ listed: 4, taken: 0, companionsTaken: 0 });
  });

  describe('fair share', () => {
    it(
      `stops one guest at ${MAX_TICKETS_PER_EVENT} tickets of an event, held or ` +
        `bought, even when the carts arrive at once`,
      async () => {
        const bought = await hold(2000, 2, 'greedy', undefined, { eventId: 20, listed: 10 });
        await buy(bought, 'ORD-GREEDY');
        // Forty carts of one ticket each, all at once, on separate listings of the same event.
        const results = await Promise.allSettled(
          Array.from({ length: 40 }, (_, i) =>
            hold(2001 + i, 1, 'greedy', undefined, { eventId: 20, listed: 10, client: `addr-${i}` }),
          ),
        );
        const won = results.filter((r) => r.status === 'fulfilled');
        const refused = results
          .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
          .map((r) => r.reason as AppError);
        // 2 bought, and open carts are capped before tickets are: 3 carts of 1 ticket.
        expect(won).toHaveLength(MAX_OPEN_CARTS);
        expect(new Set(refused.map((e) => e.code))).toEqual(new Set(['cart_limit']));
        expect(refused[0]!.message).toMatch(/3 open carts/);
      },
    );

    it('counts bought and held tickets of one event together, and names what is left', async () => {
      const first = await hold(2100, 6, 'family', undefined, { eventId: 21, listed: 10 });
      await buy(first, 'ORD-FAMILY');
      await hold(2101, 2, 'family', undefined, { eventId: 21, listed: 10 });
      await expect(hold(2102, 1, 'family', undefined, { eventId: 21, listed: 10 })).rejects.toMatchObject({
        status: 409,
        code: 'ticket_limit',
        message: expect.stringMatching(/at most 8 tickets.*8 are already held or bought/),
      });
      // Another event is another share.
      expect((await hold(2200, 2, 'family', undefined, { eventId: 22, listed: 10 })).status).toBe('active');
    });

    it('answers a hold asked again under its key with that hold, before the limits, never a second one', async () => {
      const keyed = (quantity: number) =>
        holds.createHold({
          id: '5a5a5a5a-0000-4000-8000-000000002700',
          fromKey: true,
          guestId: 'retrying',
          clientKey: 'client-of-retrying',
          listing: { id: 2700, eventId: 27, listed: 10, splits: splitsFor(10) },
          quantity,
          pricePerTicketCents: 5000,
          now,
          expiresAt: later(600_000),
        });
      const first = await keyed(MAX_TICKETS_PER_EVENT);
      // The guest's whole share is held: a new hold would be refused, the same one is answered as it stands.
      await expect(hold(2701, 1, 'retrying', undefined, { eventId: 27, listed: 10 })).rejects.toMatchObject({
        code: 'ticket_limit',
      });
      expect(await keyed(MAX_TICKETS_PER_EVENT)).toEqual(first);
      const usage = await holds.usage({ guestId: 'retrying', clientKey: 'client-of-retrying', eventId: 27, now });
      expect(usage.guest).toEqual({ eventTickets: MAX_TICKETS_PER_EVENT, openCarts: 1 });
      expect((await inventory.usage(27)).get(2700)).toMatchObject({ taken: MAX_TICKETS_PER_EVENT });
      // The key with another quantity is another request: refused, and nothing more is held.
      await expect(keyed(2)).rejects.toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    });

    it('keeps the limits per address when one address mints new guests', async () => {
      const perAddress = MAX_TICKETS_PER_EVENT * GUESTS_PER_ADDRESS;
      let held = 0;
      let refusal: AppError | undefined;
      for (let i = 0; i < GUESTS_PER_ADDRESS * 2 && !refusal; i++) {
        try {
          await hold(2300 + i, MAX_TICKETS_PER_EVENT, `minted-${i}`, undefined, {
            eventId: 23,
            listed: 10,
            client: 'one-address',
          });
          held += MAX_TICKETS_PER_EVENT;
        } catch (err) {
          refusal = err as AppError;
        }
      }
      expect(held).toBe(perAddress);
      expect(refusal).toMatchObject({
        status: 409,
        code: 'ticket_limit',
        message: expect.stringMatching(/Shoppers on your network/),
      });
    });

    it('frees the share of a released cart', async () => {
      const h = await hold(2400, 8, 'undecided', undefined, { eventId: 24, listed: 10 });
      await expect(hold(2401, 1, 'undecided', undefined, { eventId: 24, listed: 10 })).rejects.toMatchObject({
        code: 'ticket_limit',
      });
      await holds.releaseHold(h.id, 'undecided');
      expect((await hold(2401, 1, 'undecided', undefined, { eventId: 24, listed: 10 })).status).toBe('active');
    });
  });

  describe('companion seats (RULES 10.16)', () => {
    const withCompanions = (
      listingId: number,
      guest: string,
      spaces: number,
      companions: number,
      options: { listed?: number; companionsListed?: number; eventId?: number; expiresAt?: Date; at?: Date } = {},
    ) =>
      holds.createHold({
        id: randomUUID(),
        guestId: guest,
        clientKey: `client-of-${guest}`,
        listing: {
          id: listingId,
          eventId: options.eventId ?? 30,
          listed: options.listed ?? 12,
          splits: splitsFor(options.listed ?? 12),
          companionsListed: options.companionsListed ?? 2,
        },
        quantity: spaces,
        companions,
        pricePerTicketCents: 5000,
        now: options.at ?? now,
        expiresAt: options.expiresAt ?? later(600_000),
      });
    const companionCounts = async (listingId: number) => {
      const [r] = await sql.query(
        'SELECT companions_listed, companions_held, companions_sold FROM listing_inventory WHERE listing_id = $1',
        [listingId],
      );
      return {
        listed: Number(r!.companions_listed),
        held: Number(r!.companions_held),
        sold: Number(r!.companions_sold),
      };
    };

    it('gives 12 concurrent shoppers exactly the 2 companion seats, the rest a clear 409, seats to spare', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => withCompanions(3001, `companion-${i}`, 1, 1)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
      for (const r of results.filter((x): x is PromiseRejectedResult => x.status === 'rejected'))
        expect(r.reason).toMatchObject({ status: 409, code: 'not_enough_companion_seats' });
      expect(await companionCounts(3001)).toEqual({ listed: 2, held: 2, sold: 0 });
      expect((await inventory.usage(30)).get(3001)).toEqual({ listed: 12, taken: 2, companionsTaken: 2 });
    });

    it('moves them from held to sold with the seats, issues companion tickets apart, and releases them', async () => {
      const h = await withCompanions(3002, 'family', 2, 2, { eventId: 31 });
      expect(h).toMatchObject({ quantity: 2, companions: 2 });
      const attempt = randomUUID();
      expect(await holds.claimCheckout({ holdId: h.id, guestId: 'family', attempt, now })).toEqual({ claimed: true });
      const bought = await orders.purchase({
        holdId: h.id,
        guestId: 'family',
        attempt,
        now,
        order: order('ORD-COMPANION1'),
        history: [],
        payment: await pay(h.id),
        seatBlockStart: 5,
        companionBlockStart: 40,
      });
      expect(bought.quantity).toBe(4);
      expect(bought.tickets.map((t) => [t.seat, t.companion])).toEqual([
        [5, false],
        [6, false],
        [40, true],
        [41, true],
      ]);
      expect(await companionCounts(3002)).toEqual({ listed: 2, held: 0, sold: 2 });
      await expect(withCompanions(3002, 'late', 1, 1, { eventId: 31 })).rejects.toMatchObject({
        status: 409,
        code: 'not_enough_companion_seats',
      });

      const released = await withCompanions(3003, 'changes-mind', 1, 1, { eventId: 32 });
      expect(await holds.releaseHold(released.id, 'changes-mind')).toBe(true);
      const expired = await withCompanions(3003, 'walks-away', 1, 1, { eventId: 32, expiresAt: later(1000) });
      expect(await companionCounts(3003)).toMatchObject({ held: 1 });
      expect(expired.companions).toBe(1);
      expect(await holds.releaseExpired(later(2000))).toBeGreaterThanOrEqual(2);
      expect(await companionCounts(3003)).toEqual({ listed: 2, held: 0, sold: 0 });
    });

    it('counts them towards the per-event limit', async () => {
      await withCompanions(3004, 'counted', 4, 2, { eventId: 33, companionsListed: 4 });
      await expect(withCompanions(3005, 'counted', 2, 1, { eventId: 33 })).rejects.toMatchObject({
        status: 409,
        code: 'ticket_limit',
      });
      expect((await withCompanions(3005, 'counted', 2, 0, { eventId: 33 })).quantity).toBe(2);
    });

    it('never holds more than one per space, whatever the caller asks (the table refuses)', async () => {
      await expect(withCompanions(3006, 'greedy', 1, 2, { eventId: 34 })).rejects.toThrow();
      expect(await companionCounts(3006).catch(() => null)).toBeNull();
    });
  });
});
