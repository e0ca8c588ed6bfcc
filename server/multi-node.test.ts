import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog } from './catalog/load-catalog.js';
import { isPairsOnly, listingsForEvent } from './commerce/domain/listings.js';
import { GUESTS_PER_ADDRESS, MAX_TICKETS_PER_EVENT } from './commerce/domain/purchase-limits.js';
import { checkoutBody } from './test/documents.js';
import { havePostgres, type Database } from './test/postgres.js';
import { type ServerNode } from './test/server-nodes.js';
import { pickListings, startStack, type Stack } from './test/stack.js';
import { call, newShopper, nextAddress, type Answer } from './test/api-calls.js';
import { paymentLog, paymentStepAnomalies, settledPayments, storeInvariants } from './test/store-checks.js';

const SESSIONS_PER_MINUTE = 10;
const CATALOG_ADMIN_KEY = 'stack-operator-key-0123456789';

const codeOf = (a: Answer) => a.body?.error?.code as string | undefined;
const count = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;

describe.skipIf(!havePostgres())('three server nodes sharing one PostgreSQL behave as one', () => {
  let stack: Stack | undefined;
  let db: Database;
  let catalog: Catalog;
  let nodes: ServerNode[] = [];
  /** Events already used by a test, so each test has its own tickets. */
  const usedEvents = new Set<number>();
  /** The listing whose inventory row was written by hand (its sold count does not come from holds). */
  const presetListings: number[] = [];
  const node = (i: number) => nodes[i % nodes.length]!;

  beforeAll(async () => {
    stack = await startStack({
      nodes: 3,
      env: {
        RATE_LIMIT_SESSIONS_PER_MINUTE: String(SESSIONS_PER_MINUTE),
        RATE_LIMIT_CARTS_PER_MINUTE: '1000',
        CATALOG_ADMIN_KEY,
      },
    });
    ({ db, catalog, nodes } = stack);
  });

  afterAll(() => stack?.stop());

  /**
   * `shoppers` new guests race at once: guest i puts `quantity` tickets of `listingOf(i)` in a cart on the node
   * after its own and checks the cart out on the node after that. The carts' answers, and the checkouts' of the
   * carts that were held.
   */
  async function race(
    shoppers: number,
    listingOf: (i: number) => number,
    quantity: number,
  ): Promise<{ carts: Answer[]; orders: Answer[] }> {
    const guests = await Promise.all(Array.from({ length: shoppers }, (_, i) => newShopper(node(i))));
    const results = await Promise.all(
      guests.map(async (s, i) => {
        const cart = await s.call(node(i + 1), 'POST', '/api/cart', { body: { listingId: listingOf(i), quantity } });
        if (cart.status !== 201) return { cart, order: null };
        const order = await s.call(node(i + 2), 'POST', '/api/checkout', {
          body: checkoutBody(cart.body.id),
          headers: { 'Idempotency-Key': randomUUID() },
        });
        return { cart, order };
      }),
    );
    return { carts: results.map((r) => r.cart), orders: results.flatMap((r) => (r.order ? [r.order] : [])) };
  }

  it(
    'sells the last 4 tickets of an event to exactly 4 of 60 shoppers racing ' + 'for one ticket each on three nodes',
    async () => {
      // The event's last 4 tickets: one seat left in each of 4 listings (one seat is always a quantity the
      // seller allows), every other listing of the event sold out.
      const single = (l: ReturnType<typeof listingsForEvent>[number]) => l.quantity >= 2 && !isPairsOnly(l.splits);
      const { event } = pickListings(
        catalog,
        1,
        () => true,
        usedEvents,
        (e) => listingsForEvent(e).filter(single).length >= 4,
      )[0]!;
      const listings = listingsForEvent(event);
      const last = listings.filter(single).slice(0, 4);
      for (const l of listings) {
        const left = last.includes(l) ? 1 : 0;
        await db.query(
          'INSERT INTO listing_inventory (listing_id, event_id, listed, held, sold) VALUES ($1, $2, $3, 0, $4)',
          [l.id, event.event_id, l.quantity, l.quantity - left],
        );
        presetListings.push(l.id);
      }
      const { carts, orders } = await race(60, (i) => last[i % last.length]!.id, 1);
      expect(count(carts, 201)).toBe(4);
      for (const refused of carts.filter((c) => c.status !== 201))
        expect([refused.status, codeOf(refused)]).toEqual([409, 'not_enough_tickets']);
      expect(orders.map((o) => o.status)).toEqual([201, 201, 201, 201]);
      const [sold] = await db.query<{ orders: number; tickets: number }>(
        'SELECT count(*)::int AS orders, coalesce(sum(quantity), 0)::int AS tickets FROM orders WHERE event_id = $1',
        [event.event_id],
      );
      expect(sold).toEqual({ orders: 4, tickets: 4 });
      const [left] = await db.query<{ left: number; held: number }>(
        'SELECT sum(listed - held - sold)::int AS left, sum(held)::int AS held ' +
          'FROM listing_inventory WHERE event_id = $1',
        [event.event_id],
      );
      expect(left).toEqual({ left: 0, held: 0 });
    },
  );

  it(
    'sells the last 8 tickets of a listing to exactly 4 of 60 shoppers racing ' +
      '2 at a time on three nodes; none oversold, none left held',
    async () => {
      // Buying 2 always leaves 6, 4, 2 or 0 seats, so every step of the race is a quantity the seller allows.
      const { event, listing } = pickListings(
        catalog,
        1,
        (l) => l.quantity >= 10 && l.splits.includes(2),
        usedEvents,
      )[0]!;
      await db.query(
        'INSERT INTO listing_inventory (listing_id, event_id, listed, held, sold) VALUES ($1, $2, $3, 0, $4)',
        [listing.id, event.event_id, listing.quantity, listing.quantity - 8],
      );
      presetListings.push(listing.id);

      const { carts, orders } = await race(60, () => listing.id, 2);
      expect(count(carts, 201)).toBe(4);
      for (const refused of carts.filter((c) => c.status !== 201))
        expect([refused.status, codeOf(refused)]).toEqual([409, 'not_enough_tickets']);
      expect(orders.map((o) => o.status)).toEqual([201, 201, 201, 201]);
      expect(new Set(orders.map((o) => o.body.id)).size).toBe(4);

      const [row] = await db.query<{ listed: number; held: number; sold: number }>(
        'SELECT listed, held, sold FROM listing_inventory WHERE listing_id = $1',
        [listing.id],
      );
      expect(row).toEqual({ listed: listing.quantity, held: 0, sold: listing.quantity });
      const [sold] = await db.query<{ orders: number; tickets: number }>(
        'SELECT count(*)::int AS orders, coalesce(sum(quantity), 0)::int AS tickets FROM orders WHERE listing_id = $1',
        [listing.id],
      );
      expect(sold).toEqual({ orders: 4, tickets: 8 });
      // Every node now says the listing is sold out.
      for (const n of nodes) {
        const detail = await call(n.url, 'GET', `/api/listings/${listing.id}`);
        expect(detail.status).toBe(200);
        expect(detail.body.listing.quantityAvailable).toBe(0);
      }
    },
  );

  it('accepts a guest token issued by one node on the others: cart on B, checkout on C, order read on A', async () => {
    const { listing } = pickListings(catalog, 1, (l) => l.quantity >= 2 && l.splits.includes(2), usedEvents)[0]!;
    const [a, b, c] = nodes as [ServerNode, ServerNode, ServerNode];
    const shopper = await newShopper(a);

    const cart = await shopper.call(b, 'POST', '/api/cart', { body: { listingId: listing.id, quantity: 2 } });
    expect(cart.status).toBe(201);
    const seen = await shopper.call(c, 'GET', `/api/cart/${cart.body.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ id: cart.body.id, status: 'active', quantitySelected: 2 });

    const order = await shopper.call(c, 'POST', '/api/checkout', { body: checkoutBody(cart.body.id) });
    expect(order.status).toBe(201);
    const read = await shopper.call(a, 'GET', `/api/orders/${order.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: order.body.id, quantity: 2 });
    // Another guest, whichever node it asks, does not see it.
    const stranger = await newShopper(b);
    expect((await stranger.call(a, 'GET', `/api/orders/${order.body.id}`)).status).toBe(404);
  });

  it(
    'stops one guest at 8 tickets (MAX_TICKETS_PER_EVENT) of an event however ' +
      'its carts are spread over the nodes, counting bought and held tickets',
    async () => {
      const { event } = pickListings(
        catalog,
        1,
        () => true,
        usedEvents,
        (e) => listingsForEvent(e).filter((l) => l.splits.includes(2)).length >= 6,
      )[0]!;
      const [other] = pickListings(catalog, 1, (l) => l.quantity >= 2 && l.splits.includes(2), usedEvents);
      const listings = listingsForEvent(event).filter((l) => l.splits.includes(2));
      const shopper = await newShopper(node(0));
      const cart = (i: number, listingId: number) =>
        shopper.call(node(i), 'POST', '/api/cart', { body: { listingId, quantity: 2 } });

      // 2 bought on A→B, 2 bought on C→A: 4 tickets sold to this guest.
      for (const [i, l] of [listings[0]!, listings[1]!].entries()) {
        const held = await cart(2 * i, l.id);
        expect(held.status).toBe(201);
        expect(
          (await shopper.call(node(2 * i + 1), 'POST', '/api/checkout', { body: checkoutBody(held.body.id) })).status,
        ).toBe(201);
      }
      // 2 more held on B, 2 more on C: 8 in all, the cap exactly.
      const third = await cart(1, listings[2]!.id);
      expect(third.status).toBe(201);
      expect((await cart(2, listings[3]!.id)).status).toBe(201);
      // A ninth and tenth, on any node: refused.
      for (const i of [0, 1, 2]) {
        const over = await cart(i, listings[4]!.id);
        expect(over.status, `node ${i}`).toBe(409);
        expect(codeOf(over)).toBe('ticket_limit');
      }
      // The cap is per event: another event's tickets are still open to the guest.
      const elsewhere = await cart(0, other!.listing.id);
      expect(elsewhere.status).toBe(201);
      expect((await shopper.call(node(0), 'DELETE', `/api/cart/${elsewhere.body.id}`)).status).toBe(204);
      // Letting a held cart go frees its share of the cap, on every node alike.
      expect((await shopper.call(node(1), 'DELETE', `/api/cart/${third.body.id}`)).status).toBe(204);
      expect((await cart(2, listings[4]!.id)).status).toBe(201);
      const again = await cart(0, listings[5]!.id);
      expect(again.status).toBe(409);
      expect(codeOf(again)).toBe('ticket_limit');
    },
  );

  it(
    'stops one client address at its share of an event across guests and ' +
      'nodes: 4 guests × 8 tickets, then no more',
    async () => {
      const perAddress = MAX_TICKETS_PER_EVENT * GUESTS_PER_ADDRESS;
      const cartsOf4 = perAddress / 4;
      const { event } = pickListings(
        catalog,
        1,
        () => true,
        usedEvents,
        (e) => listingsForEvent(e).filter((l) => l.splits.includes(4)).length > cartsOf4,
      )[0]!;
      const listings = listingsForEvent(event).filter((l) => l.splits.includes(4));
      const ip = nextAddress();
      const guests = await Promise.all(
        Array.from({ length: GUESTS_PER_ADDRESS + 1 }, (_, i) => newShopper(node(i), ip)),
      );

      // Guests behind one address each hold their own 8 tickets (two carts of 4), through different nodes.
      for (let i = 0; i < cartsOf4; i++) {
        const guest = guests[Math.floor((i * 4) / MAX_TICKETS_PER_EVENT)]!;
        const held = await guest.call(node(i), 'POST', '/api/cart', {
          body: { listingId: listings[i]!.id, quantity: 4 },
        });
        expect(held.status, `cart ${i}`).toBe(201);
      }
      // One more guest at that address, with nothing of its own yet, is refused on every node.
      const last = guests[GUESTS_PER_ADDRESS]!;
      for (const i of [0, 1, 2]) {
        const over = await last.call(node(i), 'POST', '/api/cart', {
          body: { listingId: listings[cartsOf4]!.id, quantity: 4 },
        });
        expect(over.status, `node ${i}`).toBe(409);
        expect(codeOf(over)).toBe('ticket_limit');
      }
      // Another address is not affected.
      const elsewhere = await newShopper(node(1));
      expect(
        (
          await elsewhere.call(node(2), 'POST', '/api/cart', {
            body: { listingId: listings[cartsOf4]!.id, quantity: 4 },
          })
        ).status,
      ).toBe(201);
    },
  );

  it(
    'counts one client’s guest sessions across the nodes: 15 requests at once ' +
      'from one address → exactly 10 × 201 and 5 × 429',
    async () => {
      const ip = nextAddress();
      const answers = await Promise.all(
        Array.from({ length: 15 }, (_, i) => call(node(i).url, 'POST', '/api/customers/session', { ip })),
      );
      expect(count(answers, 201)).toBe(SESSIONS_PER_MINUTE);
      expect(count(answers, 429)).toBe(15 - SESSIONS_PER_MINUTE);
      for (const refused of answers.filter((a) => a.status === 429)) expect(codeOf(refused)).toBe('rate_limited');
      // A 16th is refused too, while another address is not affected.
      expect((await call(node(0).url, 'POST', '/api/customers/session', { ip })).status).toBe(429);
      expect((await call(node(0).url, 'POST', '/api/customers/session', { ip: nextAddress() })).status).toBe(201);
    },
  );

  it(
    'replays a checkout retried on another node with the same ' +
      'Idempotency-Key: the same order, one order and one capture in the ' +
      'database',
    async () => {
      const { listing } = pickListings(catalog, 1, (l) => l.quantity >= 2 && l.splits.includes(2), usedEvents)[0]!;
      const [a, b, c] = nodes as [ServerNode, ServerNode, ServerNode];
      const shopper = await newShopper(a);
      const cart = await shopper.call(a, 'POST', '/api/cart', { body: { listingId: listing.id, quantity: 2 } });
      expect(cart.status).toBe(201);
      const key = randomUUID();
      const body = checkoutBody(cart.body.id);

      const first = await shopper.call(b, 'POST', '/api/checkout', { body, headers: { 'Idempotency-Key': key } });
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const retry = await shopper.call(c, 'POST', '/api/checkout', { body, headers: { 'Idempotency-Key': key } });
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.body.id).toBe(first.body.id);

      // The same key with another body is refused; the cart bought again without a key answers its order.
      const reused = await shopper.call(a, 'POST', '/api/checkout', {
        body: checkoutBody(cart.body.id, 'someone.else@example.com'),
        headers: { 'Idempotency-Key': key },
      });
      expect(reused.status).toBe(422);
      expect(codeOf(reused)).toBe('idempotency_key_reused');
      const bought = await shopper.call(a, 'POST', '/api/checkout', { body });
      expect(bought.status).toBe(200);
      expect(bought.body.id).toBe(first.body.id);

      expect(await db.query('SELECT id FROM orders WHERE hold_id = $1', [cart.body.id])).toEqual([
        { id: first.body.id },
      ]);
      expect(await db.query('SELECT status FROM payments WHERE hold_id = $1', [cart.body.id])).toEqual([
        { status: 'captured' },
      ]);
      expect(paymentLog(nodes).authorized.filter((r) => r.cart === cart.body.id)).toHaveLength(1);
    },
  );

  it(
    'gives two checkouts of one cart sent to two nodes at once a single order ' +
      'and a single charge, with or without a shared key',
    async () => {
      const picked = pickListings(catalog, 2, (l) => l.quantity >= 2 && l.splits.includes(2), usedEvents);
      for (const [round, { listing }] of picked.entries()) {
        const sameKey = round === 0;
        const shopper = await newShopper(node(round));
        const cart = await shopper.call(node(0), 'POST', '/api/cart', { body: { listingId: listing.id, quantity: 2 } });
        expect(cart.status).toBe(201);
        const body = checkoutBody(cart.body.id);
        const shared = randomUUID();
        const both = await Promise.all(
          [1, 2].map((i) =>
            shopper.call(node(i), 'POST', '/api/checkout', {
              body,
              headers: { 'Idempotency-Key': sameKey ? shared : randomUUID() },
            }),
          ),
        );
        const created = both.filter((r) => r.status === 201);
        expect(created.length, JSON.stringify(both.map((r) => [r.status, codeOf(r)]))).toBeGreaterThanOrEqual(1);
        const orderId = created[0]!.body.id as string;
        for (const r of both) {
          // The loser was told the checkout is under way, or was given the same order.
          if (r.status === 409) expect(codeOf(r)).toBe(sameKey ? 'idempotency_key_in_use' : 'checkout_in_progress');
          else expect(r.body.id).toBe(orderId);
        }
        expect(await db.query('SELECT id FROM orders WHERE hold_id = $1', [cart.body.id])).toEqual([{ id: orderId }]);
        expect(
          await db.query(`SELECT count(*)::int AS n FROM payments WHERE hold_id = $1 AND status = 'captured'`, [
            cart.body.id,
          ]),
        ).toEqual([{ n: 1 }]);
        expect(paymentLog(nodes).captured.filter((r) => r.cart === cart.body.id)).toHaveLength(1);
      }
    },
  );

  it(
    'shows a catalog change sent to one node on all three: an event renamed ' + 'through node A is found on A, B and C',
    async () => {
      const event = catalog.collections.Event.find(
        (e) => !usedEvents.has(e.event_id) && e.event_status === 'scheduled',
      )!;
      usedEvents.add(event.event_id);
      const name = 'Aurora Borealis Nights Live';
      const imported = await fetch(`${node(0).url}/api/admin/collections/Event/documents/import?action=update`, {
        method: 'POST',
        headers: { 'X-TYPESENSE-API-KEY': CATALOG_ADMIN_KEY, 'Content-Type': 'text/plain' },
        body: JSON.stringify({ id: event.id, event_name: name }),
      });
      expect(imported.status).toBe(200);
      expect(await imported.text()).toBe('{"success":true}');
      const seen = await Promise.all(
        [0, 1, 2].map(async (i) => {
          // Each node reads the log every half second; this waits far longer than that, and stops once it shows.
          for (let tries = 0; tries < 100; tries++) {
            const found = await call(node(i).url, 'GET', `/api/events/${event.event_id}`);
            if (found.body?.event?.name === name) return true;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          return false;
        }),
      );
      expect(seen).toEqual([true, true, true]);
      // Logged once (the demand signals of the carts and orders above may log changes of their own events too): in
      // the log, or folded out of it once every node has applied it.
      const logged = await db.query<{ collection: string; doc_id: string }>(
        'SELECT collection, doc_id FROM catalog_changes WHERE doc_id = $1 ' +
          'UNION ALL SELECT collection, doc_id FROM catalog_folded WHERE doc_id = $1',
        [event.id],
      );
      expect(logged).toEqual([{ collection: 'Event', doc_id: event.id }]);
    },
  );

  it(
    'serves a segment set published through the studio of node A on A, B and ' +
      'C, and a rollback through C on all three',
    async () => {
      const titleOn = async (n: ServerNode) => {
        const answer = await call(n.url, 'GET', '/api/layout/home');
        return (answer.body?.rows as { id: string; title: string }[] | undefined)?.find((r) => r.id === 'local-venues')
          ?.title;
      };
      const everyNode = async (title: string) => {
        const began = Date.now();
        // Generous: a test never asserts on time; the propagation time is logged for the record.
        const deadline = began + 20_000;
        let seen: (string | undefined)[] = [];
        while (Date.now() < deadline) {
          seen = await Promise.all(nodes.map(titleOn));
          if (seen.every((t) => t === title)) return Date.now() - began;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        throw new Error(`not on every node: ${JSON.stringify(seen)}`);
      };
      const before = await titleOn(node(0));
      expect(before).toBe('Local Venues');
      const state = await call(node(0).url, 'GET', '/api/studio/state');
      expect(state.status).toBe(200);
      const file = (state.body.files as { path: string; text: string }[]).find((f) => f.path === 'base/explore.json')!;
      const saved = await call(node(0).url, 'PUT', '/api/studio/files/base/explore.json', {
        body: { text: file.text.replace('"Local Venues"', '"Venues Across Nodes"') },
      });
      expect(saved.status).toBe(200);
      // A draft is not published: every node still serves the old title.
      expect(await Promise.all(nodes.map(titleOn))).toEqual([before, before, before]);
      const published = await call(node(0).url, 'POST', '/api/studio/publish', {
        body: { note: 'Rename on every node' },
      });
      expect(published.status).toBe(201);
      const publishMs = await everyNode('Venues Across Nodes');
      const history = await call(node(1).url, 'GET', '/api/studio/versions');
      expect((history.body.versions as { version: number; note: string }[])[0]).toMatchObject({
        version: published.body.version.version,
        note: 'Rename on every node',
      });
      const restored = await call(
        node(2).url,
        'POST',
        `/api/studio/versions/${published.body.version.version - 1}/restore`,
        { body: {} },
      );
      expect(restored.status).toBe(201);
      const rollbackMs = await everyNode(before!);
      console.log(`segment publish reached all 3 nodes in ${publishMs} ms, the rollback in ${rollbackMs} ms`);
    },
  );

  it('publishes a version scheduled through node A once, at its time, and serves it on all three nodes', async () => {
    // RULES 18.2: every node looks for due versions; the store takes one version per schedule.
    const titleOn = async (n: ServerNode) =>
      ((await call(n.url, 'GET', '/api/layout/home')).body?.rows as { id: string; title: string }[] | undefined)?.find(
        (r) => r.id === 'local-venues',
      )?.title;
    const before = await titleOn(node(0));
    const state = await call(node(0).url, 'GET', '/api/studio/state');
    const file = (state.body.files as { path: string; text: string }[]).find((f) => f.path === 'base/explore.json')!;
    const saved = await call(node(0).url, 'PUT', '/api/studio/files/base/explore.json', {
      body: { text: file.text.replace(`"${before}"`, '"Venues On Schedule"') },
    });
    expect(saved.status).toBe(200);
    const at = Date.now() + 3_000;
    const scheduled = await call(node(0).url, 'POST', '/api/studio/schedules', {
      body: { note: 'Scheduled on every node', at: new Date(at).toISOString() },
    });
    expect(scheduled.status).toBe(201);
    expect(await Promise.all(nodes.map(titleOn))).toEqual([before, before, before]);
    // Each node's first sight of it after its time, logged for the record (a test never asserts on time).
    const seenAfter = await Promise.all(
      nodes.map(async (n) => {
        for (let tries = 0; tries < 400; tries++) {
          if ((await titleOn(n)) === 'Venues On Schedule') return Date.now() - at;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return null;
      }),
    );
    expect(seenAfter.every((ms) => ms !== null)).toBe(true);
    console.log(`a scheduled version was served by the 3 nodes ${seenAfter.join(', ')} ms after its time`);
    const published = await db.query<{ version: number }>('SELECT version FROM segment_versions WHERE note = $1', [
      'Scheduled on every node',
    ]);
    expect(published).toHaveLength(1);
    const listed = await call(node(2).url, 'GET', '/api/studio/schedules');
    expect(listed.body.schedules[0]).toMatchObject({
      id: scheduled.body.schedule.id,
      status: 'published',
      version: Number(published[0]!.version),
    });
    const restored = await call(
      node(1).url,
      'POST',
      `/api/studio/versions/${Number(published[0]!.version) - 1}/restore`,
      { body: {} },
    );
    expect(restored.status).toBe(201);
    await call(node(0).url, 'POST', '/api/studio/discard', { body: {} });
  });

  it('opens a preview link made on node A on B and C, and closes it on all three once C revokes it', async () => {
    // RULES 18.3: the link's key comes from the secret every node shares, its record from the shared store.
    const made = await call(node(0).url, 'POST', '/api/studio/preview-links', {
      body: { brand: 'base', page: 'home', place: { zip: '60601' } },
    });
    expect(made.status).toBe(201);
    const token = new URL(made.body.url as string).pathname.split('/').pop()!;
    for (const n of [node(1), node(2)]) {
      const opened = await call(n.url, 'GET', `/api/preview/${token}`);
      expect(opened.status).toBe(200);
      expect(opened.body.layout.location.city).toBe('Chicago');
    }
    expect((await call(node(2).url, 'DELETE', `/api/studio/preview-links/${made.body.id}`)).status).toBe(200);
    for (const n of nodes) expect((await call(n.url, 'GET', `/api/preview/${token}`)).status).toBe(404);
  });

  it(
    'leaves the shared database consistent after all of the above: orders and ' +
      'purchased holds one to one, one capture each, no payment left authorized',
    async () => {
      expect(await settledPayments(db)).toBe(0);
      const state = await storeInvariants(db, presetListings);
      expect(state.orders).toBeGreaterThan(0);
      expect(state).toMatchObject({
        ordersWithoutPurchasedHold: [],
        purchasedHoldsWithoutOrder: [],
        ordersWithoutOneCapture: [],
        capturesWithoutOrder: [],
        doubled: [],
        inventoryMismatches: [],
      });
      expect(state.payments.captured).toBe(state.orders);
      expect(await paymentStepAnomalies(db, nodes)).toEqual([]);
      const logged = paymentLog(nodes);
      expect(logged.captured).toHaveLength(state.orders);
      expect(logged.authorized).toHaveLength(logged.captured.length + logged.voided.length);
      for (const n of nodes) expect(n.exit, n.name).toBeNull();
    },
  );
});
