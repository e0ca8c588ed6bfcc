import type { Sql } from './sql.js';

/**
 * Schema changes in order; each runs once, in a transaction, recorded in schema_migrations. Never edit one that
 * shipped: add another.
 */
export const MIGRATIONS: readonly { id: number; name: string; sql: string }[] = [
  {
    id: 1,
    name: 'recent activity',
    sql: `
      CREATE TABLE recent_activity (
        guest_id    text        NOT NULL,
        entity_type text        NOT NULL CHECK (entity_type IN ('performer', 'event')),
        entity_id   bigint      NOT NULL,
        name        text        NOT NULL,
        url         text        NOT NULL,
        image       text,
        viewed_at   timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (guest_id, entity_type, entity_id)
      );
      CREATE INDEX recent_activity_by_guest ON recent_activity (guest_id, viewed_at DESC);
    `,
  },
  {
    id: 2,
    name: 'inventory, holds and orders',
    sql: `
      CREATE TABLE listing_inventory (
        listing_id bigint  PRIMARY KEY,
        event_id   bigint  NOT NULL,
        listed     integer NOT NULL CHECK (listed >= 0),
        held       integer NOT NULL DEFAULT 0 CHECK (held >= 0),
        sold       integer NOT NULL DEFAULT 0 CHECK (sold >= 0),
        CHECK (held + sold <= listed)
      );
      CREATE INDEX listing_inventory_by_event ON listing_inventory (event_id);
      CREATE TABLE holds (
        id                     uuid        PRIMARY KEY,
        guest_id               text        NOT NULL,
        listing_id             bigint      NOT NULL REFERENCES listing_inventory (listing_id),
        event_id               bigint      NOT NULL,
        quantity               integer     NOT NULL CHECK (quantity > 0),
        price_per_ticket_cents integer     NOT NULL CHECK (price_per_ticket_cents > 0),
        status                 text        NOT NULL CHECK (status IN ('active', 'expired', 'released', 'purchased')),
        created_at             timestamptz NOT NULL,
        expires_at             timestamptz NOT NULL
      );
      CREATE INDEX holds_active_by_expiry ON holds (expires_at) WHERE status = 'active';
      CREATE TABLE orders (
        id                    text        PRIMARY KEY,
        access_code_hash      text        NOT NULL,
        guest_id              text        NOT NULL,
        hold_id               uuid        NOT NULL UNIQUE REFERENCES holds (id),
        event_id              bigint      NOT NULL,
        listing_id            bigint      NOT NULL,
        quantity              integer     NOT NULL CHECK (quantity > 0),
        status                text        NOT NULL,
        subtotal_cents        integer     NOT NULL,
        discount_cents        integer     NOT NULL,
        service_fee_cents     integer     NOT NULL,
        fulfillment_fee_cents integer     NOT NULL,
        total_cents           integer     NOT NULL,
        promo_code            text,
        email                 text        NOT NULL,
        billing               jsonb       NOT NULL,
        payment_method        text        NOT NULL,
        charge_id             text        NOT NULL,
        created_at            timestamptz NOT NULL
      );
      CREATE INDEX orders_by_status ON orders (status, created_at);
      CREATE TABLE order_events (
        order_id text        NOT NULL REFERENCES orders (id),
        seq      integer     NOT NULL,
        status   text        NOT NULL,
        at       timestamptz NOT NULL,
        note     text        NOT NULL,
        PRIMARY KEY (order_id, seq)
      );
    `,
  },
  {
    id: 3,
    name: 'fair holds, exactly-once checkout, shared rate limits',
    sql: `
      ALTER TABLE holds ADD COLUMN client_key text;
      ALTER TABLE holds ADD COLUMN checkout_attempt uuid;
      ALTER TABLE holds ADD COLUMN checkout_started_at timestamptz;
      CREATE INDEX holds_by_guest ON holds (guest_id, event_id);
      CREATE INDEX holds_by_client ON holds (client_key, event_id);
      CREATE TABLE payments (
        id               text        PRIMARY KEY,
        hold_id          uuid        NOT NULL REFERENCES holds (id),
        order_id         text        REFERENCES orders (id),
        authorization_id text,
        amount_cents     integer     NOT NULL CHECK (amount_cents > 0),
        status           text        NOT NULL CHECK (status IN ('authorizing', 'authorized', 'captured', 'voiding',
                                                            'voided', 'failed', 'capture_failed')),
        created_at       timestamptz NOT NULL,
        updated_at       timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX payments_one_taken_per_hold ON payments (hold_id) WHERE status IN ('authorized', 'captured');
      CREATE INDEX payments_unsettled ON payments (updated_at) WHERE status IN ('authorizing', 'authorized', 'voiding');
      CREATE TABLE idempotency_keys (
        scope           text        NOT NULL,
        key             text        NOT NULL,
        request_hash    text        NOT NULL,
        state           text        NOT NULL CHECK (state IN ('running', 'done')),
        owner           text        NOT NULL,
        response_status integer,
        response_body   jsonb,
        locked_until    timestamptz NOT NULL,
        expires_at      timestamptz NOT NULL,
        PRIMARY KEY (scope, key)
      );
      CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
      CREATE TABLE rate_limit_hits (
        key      text        PRIMARY KEY,
        hits     integer     NOT NULL,
        reset_at timestamptz NOT NULL
      );
      CREATE INDEX rate_limit_hits_by_reset ON rate_limit_hits (reset_at);
    `,
  },
  {
    id: 4,
    name: 'catalog change log, demand signals',
    sql: `
      CREATE TABLE catalog_changes (
        seq        bigserial   PRIMARY KEY,
        catalog    text        NOT NULL,
        collection text        NOT NULL,
        doc_id     text        NOT NULL,
        document   jsonb,
        previous   jsonb,
        at         timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX catalog_changes_by_catalog ON catalog_changes (catalog, seq);
      CREATE TABLE catalog_log (id text PRIMARY KEY);
      CREATE TABLE catalog_listings (
        catalog    text   NOT NULL,
        listing_id bigint NOT NULL,
        event_id   bigint NOT NULL,
        document   jsonb  NOT NULL,
        PRIMARY KEY (catalog, listing_id)
      );
      CREATE INDEX catalog_listings_by_event ON catalog_listings (catalog, event_id);
      INSERT INTO catalog_log (id) VALUES (gen_random_uuid()::text);
      CREATE TABLE demand_baselines (
        collection text  NOT NULL,
        doc_id     text  NOT NULL,
        baseline   jsonb NOT NULL,
        written    jsonb NOT NULL,
        PRIMARY KEY (collection, doc_id)
      );
      CREATE TABLE demand_progress (
        id       integer     PRIMARY KEY CHECK (id = 1),
        last_run timestamptz NOT NULL
      );
      INSERT INTO demand_progress (id, last_run) VALUES (1, now());
      CREATE INDEX holds_by_event_created ON holds (event_id, created_at);
      CREATE INDEX holds_by_created ON holds (created_at);
      CREATE INDEX holds_by_expiry ON holds (expires_at);
      CREATE INDEX orders_by_event_created ON orders (event_id, created_at);
      CREATE INDEX orders_by_created ON orders (created_at);
      CREATE INDEX recent_activity_by_entity ON recent_activity (entity_type, entity_id, viewed_at);
      CREATE INDEX recent_activity_by_time ON recent_activity (viewed_at);
    `,
  },
  {
    id: 5,
    name: 'tickets',
    sql: `
      CREATE TABLE tickets (
        id         text        PRIMARY KEY,
        order_id   text        NOT NULL REFERENCES orders (id),
        listing_id bigint      NOT NULL,
        seq        integer     NOT NULL CHECK (seq > 0),
        seat_index integer     NOT NULL CHECK (seat_index >= 0),
        seat       integer     CHECK (seat > 0),
        scanned_at timestamptz,
        UNIQUE (order_id, seq)
      );
      CREATE INDEX tickets_by_listing ON tickets (listing_id, seat_index)
    `,
  },
  {
    id: 6,
    name: 'segment versions',
    sql: `
      CREATE TABLE segment_versions (
        version       integer     PRIMARY KEY CHECK (version > 0),
        published_at  timestamptz NOT NULL DEFAULT now(),
        author        text,
        note          text        NOT NULL,
        restored_from integer,
        digest        text        NOT NULL,
        files         jsonb       NOT NULL
      )
    `,
  },
  {
    id: 7,
    name: 'first-party events',
    // Append-only (the retention sweep aside). \`once\` is what makes a repeat a no-op: a browser's event id, a page
    // view's row or exposure, an order. The two views are what GrowthBook's PostgreSQL data source reads, under
    // the names and columns its default queries use.
    sql: `
      CREATE TABLE analytics_events (
        id              bigserial   PRIMARY KEY,
        name            text        NOT NULL,
        occurred_at     timestamptz NOT NULL,
        anonymous_id    text        NOT NULL,
        brand           text        NOT NULL,
        device          text        NOT NULL,
        page            text,
        page_view       text,
        variation       text,
        segment_file    text,
        segment_version integer,
        row_id          text,
        position        integer,
        item_position   integer,
        item            text,
        experiment_id   text,
        variation_id    text,
        reason          text,
        order_id        text,
        revenue         numeric(12, 2),
        once            text
      );
      CREATE UNIQUE INDEX analytics_events_once ON analytics_events (once);
      CREATE INDEX analytics_events_by_time ON analytics_events (occurred_at);
      CREATE INDEX analytics_events_by_experiment ON analytics_events (experiment_id, occurred_at)
        WHERE name = 'experiment_viewed';
      CREATE INDEX analytics_events_purchases ON analytics_events (anonymous_id, occurred_at)
        WHERE name = 'purchase';
      CREATE VIEW experiment_viewed AS
        SELECT anonymous_id, occurred_at AS timestamp, experiment_id, variation_id, brand, device
        FROM analytics_events WHERE name = 'experiment_viewed';
      CREATE VIEW purchases AS
        SELECT anonymous_id, occurred_at AS timestamp, order_id, revenue
        FROM analytics_events WHERE name = 'purchase'
    `,
  },
  {
    id: 8,
    name: 'studio records',
    // The studio's small collections (users, scheduled versions, preview links), each record a JSON document, and
    // its append-only audit log. A scheduled version, once published, names its schedule: one publish per schedule.
    sql: `
      CREATE TABLE records (
        collection text  NOT NULL,
        id         text  NOT NULL,
        body       jsonb NOT NULL,
        PRIMARY KEY (collection, id)
      );
      CREATE TABLE record_log (
        id   bigserial   PRIMARY KEY,
        log  text        NOT NULL,
        at   timestamptz NOT NULL,
        body jsonb       NOT NULL
      );
      CREATE INDEX record_log_by_log ON record_log (log, id);
      ALTER TABLE segment_versions ADD COLUMN schedule_id text UNIQUE
    `,
  },
  {
    id: 9,
    name: 'row results indexes',
    // RULES 18: a page's row events by brand, page and time (the row results' scan), and each guest's row clicks
    // by time (whether a later click of the brand took a purchase from an earlier one).
    sql: `
      CREATE INDEX analytics_events_row_events ON analytics_events (brand, page, occurred_at)
        WHERE name IN ('row_impression', 'row_click');
      CREATE INDEX analytics_events_row_clicks ON analytics_events (anonymous_id, occurred_at)
        WHERE name = 'row_click'
    `,
  },
  {
    id: 10,
    name: 'refunds, event changes, the sandbox processor',
    // RULES 19: refunds returned through the processor once each (its id is the processor's idempotency key), one
    // full refund per order at most; what each event looked like when its orders were last told of it; and the
    // sandbox processor's own records, so that any node settles or refunds what another node charged.
    sql: `
      ALTER TABLE orders ADD COLUMN brand text;
      CREATE TABLE refunds (
        id                  text        PRIMARY KEY,
        order_id            text        NOT NULL REFERENCES orders (id),
        payment_id          text        NOT NULL REFERENCES payments (id),
        amount_cents        integer     NOT NULL CHECK (amount_cents > 0),
        full_refund         boolean     NOT NULL,
        reason              text        NOT NULL,
        note                text        NOT NULL,
        requested_by        text        NOT NULL,
        status              text        NOT NULL CHECK (status IN ('pending', 'refunded', 'failed')),
        processor_refund_id text,
        last_error          text,
        attempts            integer     NOT NULL DEFAULT 0,
        next_attempt_at     timestamptz NOT NULL,
        created_at          timestamptz NOT NULL,
        refunded_at         timestamptz
      );
      CREATE UNIQUE INDEX refunds_one_full_per_order ON refunds (order_id) WHERE full_refund AND status <> 'failed';
      CREATE INDEX refunds_by_order ON refunds (order_id);
      CREATE INDEX refunds_due ON refunds (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX orders_by_event_status ON orders (event_id, status);
      CREATE TABLE event_watch (
        event_id   bigint      PRIMARY KEY,
        status     text        NOT NULL,
        starts     text,
        checked_at timestamptz NOT NULL
      );
      CREATE TABLE event_notices (
        id            bigserial   PRIMARY KEY,
        event_id      bigint      NOT NULL,
        status        text        NOT NULL,
        previous_when text,
        current_when  text,
        at            timestamptz NOT NULL
      );
      CREATE TABLE order_notices (
        order_id     text        NOT NULL REFERENCES orders (id),
        notice_id    bigint      NOT NULL REFERENCES event_notices (id),
        refund_until timestamptz NOT NULL,
        at           timestamptz NOT NULL,
        PRIMARY KEY (order_id, notice_id)
      );
      CREATE TABLE sandbox_attempts (
        key         text        PRIMARY KEY,
        fingerprint text        NOT NULL,
        result      jsonb       NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE sandbox_charges (
        id              text        PRIMARY KEY,
        idempotency_key text        NOT NULL REFERENCES sandbox_attempts (key),
        amount_cents    integer     NOT NULL,
        method          text        NOT NULL,
        last4           text        NOT NULL,
        status          text        NOT NULL CHECK (status IN ('authorized', 'captured', 'voided'))
      );
      CREATE TABLE sandbox_refunds (
        id              text        PRIMARY KEY,
        idempotency_key text        NOT NULL UNIQUE,
        charge_id       text        NOT NULL REFERENCES sandbox_charges (id),
        amount_cents    integer     NOT NULL CHECK (amount_cents > 0),
        at              timestamptz NOT NULL
      );
      CREATE INDEX sandbox_refunds_by_charge ON sandbox_refunds (charge_id)
    `,
  },
  {
    id: 11,
    name: 'mail outbox',
    // Mail waits here until the worker sends it (server/mail/outbox.ts): queued in the transaction that decided it,
    // once per key, claimed by one node at a time with a lease (locked_until), retried with backoff until
    // give_up_at, and never holding a secret (links are signed at send time). The claim reads due rows by
    // (state, next_attempt_at).
    sql: `
      CREATE TABLE mail_outbox (
        id              bigserial   PRIMARY KEY,
        key             text        NOT NULL UNIQUE,
        kind            text        NOT NULL,
        brand           text        NOT NULL,
        recipient       text        NOT NULL,
        data            jsonb       NOT NULL,
        state           text        NOT NULL DEFAULT 'queued'
                                    CHECK (state IN ('queued', 'sending', 'sent', 'failed')),
        attempts        integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        next_attempt_at timestamptz NOT NULL,
        give_up_at      timestamptz NOT NULL,
        locked_until    timestamptz,
        last_error      text,
        message_id      text,
        created_at      timestamptz NOT NULL,
        sent_at         timestamptz
      );
      CREATE INDEX mail_outbox_due ON mail_outbox (state, next_attempt_at);
      CREATE INDEX mail_outbox_sending ON mail_outbox (locked_until) WHERE state = 'sending';
      CREATE INDEX mail_outbox_by_created ON mail_outbox (created_at)
    `,
  },
  {
    id: 12,
    name: "a shopper's own data",
    // RULES 21: what a guest chose about selling or sharing (21.4) and when their personal data was erased (21.3),
    // per guest id; an erased order keeps its amounts, dates and ids but not its buyer (erased_at says when). A
    // guest's orders are read by guest id for a download or an erasure.
    sql: `
      ALTER TABLE orders ADD COLUMN erased_at timestamptz;
      CREATE INDEX orders_by_guest ON orders (guest_id);
      CREATE TABLE guest_privacy (
        guest_id             text        PRIMARY KEY,
        do_not_sell_or_share boolean     NOT NULL DEFAULT false,
        chosen_at            timestamptz,
        erased_at            timestamptz
      )
    `,
  },
  {
    id: 13,
    name: 'companion seats',
    // RULES 10.16: an accessible listing's companion seats are counted beside its seats, held and sold in the same
    // row lock and refused by the table beyond what is listed; a hold says how many of its tickets are companion
    // seats (at most one per wheelchair space), and so does each ticket.
    sql: `
      ALTER TABLE listing_inventory
        ADD COLUMN companions_listed integer NOT NULL DEFAULT 0 CHECK (companions_listed >= 0),
        ADD COLUMN companions_held   integer NOT NULL DEFAULT 0 CHECK (companions_held >= 0),
        ADD COLUMN companions_sold   integer NOT NULL DEFAULT 0 CHECK (companions_sold >= 0),
        ADD CONSTRAINT listing_inventory_companions_within_listed
          CHECK (companions_held + companions_sold <= companions_listed);
      ALTER TABLE holds
        ADD COLUMN companions integer NOT NULL DEFAULT 0 CHECK (companions >= 0),
        ADD CONSTRAINT holds_companions_per_space CHECK (companions <= quantity);
      ALTER TABLE tickets ADD COLUMN companion boolean NOT NULL DEFAULT false
    `,
  },
  {
    id: 14,
    name: 'listing terms kept with the order',
    // RULES 20.1: what the listing disclosed when the order was paid (seats, face value, restrictions, delivery, the
    // notice of tickets the seller did not yet hold); null for orders placed before it was kept.
    sql: `ALTER TABLE orders ADD COLUMN terms jsonb`,
  },
  {
    id: 15,
    name: "one column for a payment's authorization",
    // The processor's authorization of an order is kept once, on its payment (payments.authorization_id), which
    // settles, refunds and reconciles it; orders.charge_id held the same id. An order's payment that lacks it takes
    // it from the order, and an order older than payments (it has none) gets its captured payment, before the
    // order's column goes (an order of nothing to pay moved no money and keeps no id).
    sql: `
      UPDATE payments p SET authorization_id = o.charge_id
        FROM orders o WHERE p.order_id = o.id AND p.authorization_id IS NULL;
      INSERT INTO payments (id, hold_id, order_id, authorization_id, amount_cents, status, created_at, updated_at)
        SELECT 'pay_' || o.id, o.hold_id, o.id, o.charge_id, o.total_cents, 'captured', o.created_at, o.created_at
        FROM orders o
        WHERE o.total_cents > 0 AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id);
      ALTER TABLE orders DROP COLUMN charge_id
    `,
  },
  {
    id: 16,
    name: 'orders due for their next step',
    // The order housekeeping takes only orders whose next step is due (RULES 10.9): `due_at` is when it should next
    // look at one (null: nothing the housekeeping does moves it), so orders that wait (shipped tickets, an event not
    // started, a capture refused) never fill its batch. Standing orders are due at once: the first look sets each.
    sql: `
      ALTER TABLE orders ADD COLUMN due_at timestamptz;
      UPDATE orders SET due_at = created_at WHERE status IN ('pending_seller_confirmation', 'confirmed', 'delivered');
      CREATE INDEX orders_due ON orders (status, due_at) WHERE due_at IS NOT NULL
    `,
  },
  {
    id: 17,
    name: 'catalog change log pruned behind its nodes',
    // What each node has applied of the change log; the changes pruned from it, folded to the last one of each
    // document (what a node behind the pruned point starts from); demand signals marked, so a later one of a
    // document replaces the one before it (server/live-catalog/change-log.ts).
    sql: `
      CREATE TABLE catalog_nodes (
        node_id     text        PRIMARY KEY,
        applied_seq bigint      NOT NULL,
        seen_at     timestamptz NOT NULL
      );
      CREATE TABLE catalog_folded (
        catalog    text        NOT NULL,
        collection text        NOT NULL,
        doc_id     text        NOT NULL,
        seq        bigint      NOT NULL,
        document   jsonb,
        previous   jsonb,
        at         timestamptz NOT NULL,
        PRIMARY KEY (catalog, collection, doc_id)
      );
      CREATE INDEX catalog_folded_by_catalog ON catalog_folded (catalog, seq);
      ALTER TABLE catalog_log ADD COLUMN pruned_through bigint NOT NULL DEFAULT 0;
      ALTER TABLE catalog_changes ADD COLUMN demand boolean NOT NULL DEFAULT false;
      CREATE INDEX catalog_changes_demand ON catalog_changes (catalog, collection, doc_id) WHERE demand
    `,
  },
];

/** The advisory lock key of schema changes (any fixed number no other code uses). */
const MIGRATIONS_LOCK = 22_791_001;

/** Applies the migrations not applied yet (all of them; a test may pass the first few to build an older schema). */
export async function migrate(
  sql: Sql,
  migrations: readonly { id: number; name: string; sql: string }[] = MIGRATIONS,
): Promise<number[]> {
  // Nodes starting together on a new database would race to create the table (CREATE … IF NOT EXISTS is not
  // safe against a concurrent create): one transaction-scoped advisory lock lets one create it at a time.
  await sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATIONS_LOCK]);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (id integer PRIMARY KEY, ` +
        `name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
  });
  const applied = new Set(
    (await sql.query<{ id: number }>('SELECT id FROM schema_migrations')).map((r) => Number(r.id)),
  );
  const ran: number[] = [];
  for (const m of migrations) {
    if (applied.has(m.id)) continue;
    await sql.transaction(async (tx) => {
      // Two nodes starting together: the second waits here, then finds the migration applied.
      await tx.query('LOCK TABLE schema_migrations IN EXCLUSIVE MODE');
      const again = await tx.query('SELECT 1 FROM schema_migrations WHERE id = $1', [m.id]);
      if (again.length > 0) return;
      for (const statement of m.sql
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean))
        await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [m.id, m.name]);
      ran.push(m.id);
    });
  }
  return ran;
}
