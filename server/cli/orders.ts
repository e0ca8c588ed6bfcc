import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { formatMoney } from '../../shared/rules/pricing.js';
import { SandboxPaymentProvider } from '../commerce/domain/payments.js';
import { OperatorRefundSchema, OrderAdmin, type EventMoney } from '../commerce/order-admin.js';
import { PaymentStore } from '../commerce/payment-store.js';
import { RefundService } from '../commerce/refund-service.js';
import { RefundStore, type RefundRow } from '../commerce/refund-store.js';
import { SqlSandboxLedger } from '../commerce/sandbox-ledger.js';
import { AppError } from '../http/errors.js';
import { ADMIN_KEY_HEADER } from '../http/security.js';
import { callStorefront, withCliStore, parseCliArgs } from './cli-support.js';

export interface OrdersCliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  fetch?: typeof fetch;
}

const USAGE = `Usage:
  npm run orders -- refund ORDER [--amount DOLLARS] --reason "…"   refund an order in full, or DOLLARS of it
  npm run orders -- refund --event ID --reason "…"                  refund every charged order of an event in full
  npm run orders -- reconcile [--event ID] [--json]                 charged, refunded and net per event, checked
                                                                    against the payment processor's records

  Refunds go back to the buyer's payment method through the processor, once each, and the buyer is emailed
  (RULES 19.3). With DATABASE_URL set, this works on that PostgreSQL (the running nodes make the refund within
  seconds; this command makes it at once too). With --url (or STOREFRONT_URL), through a running storefront's
  /api/admin with CATALOG_ADMIN_KEY. Otherwise on the embedded store in <DATA_DIR>/db, which only a stopped
  storefront leaves free.`;

/** How long `refund` waits for the refund to be made before saying it is on its way. */
const WAIT_FOR_REFUND_MS = 10_000;

/** An operator's view of one refund, whichever way it was made. */
interface RefundLine {
  id: string;
  order: string;
  amount: number;
  status: string;
  lastError: string | null;
}

const refundLine = (r: RefundRow): RefundLine => ({
  id: r.id,
  order: r.order_id,
  amount: r.amount_cents / 100,
  status: r.status,
  lastError: r.last_error,
});

/** The reconciliation as a table, one line per event and a total. */
export function formatReconciliation(events: readonly EventMoney[]): string[] {
  const money = (cents: number) => formatMoney(cents / 100);
  const rows = [
    ['event', 'orders', 'charged', 'refunded', 'pending', 'net', 'processor charged', 'processor refunded', 'agrees'],
    ...events.map((e) => [
      String(e.eventId),
      String(e.orders),
      money(e.chargedCents),
      money(e.refundedCents),
      money(e.pendingCents),
      money(e.netCents),
      money(e.processor.chargedCents),
      money(e.processor.refundedCents),
      e.agrees ? 'yes' : `NO (${e.mismatches.length})`,
    ]),
  ];
  const sum = (f: (e: EventMoney) => number) => money(events.reduce((total, e) => total + f(e), 0));
  rows.push([
    'total',
    String(events.reduce((n, e) => n + e.orders, 0)),
    sum((e) => e.chargedCents),
    sum((e) => e.refundedCents),
    sum((e) => e.pendingCents),
    sum((e) => e.netCents),
    sum((e) => e.processor.chargedCents),
    sum((e) => e.processor.refundedCents),
    events.every((e) => e.agrees) ? 'yes' : 'NO',
  ]);
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  const lines = rows.map((row) =>
    row
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join('  ')
      .trimEnd(),
  );
  for (const e of events)
    for (const m of e.mismatches)
      lines.push(`event ${e.eventId}, order ${m.orderId} (${m.chargeId}): ours ${m.ours}; processor ${m.processor}`);
  const failed = events.reduce((n, e) => n + e.failedRefunds, 0);
  if (failed > 0) lines.push(`${failed} refunds failed: see npm run orders -- reconcile --json, and refund again.`);
  return lines;
}

/** `npm run orders -- refund … | reconcile …`; returns the exit code. */
export async function runOrdersCli(argv: string[], env: NodeJS.ProcessEnv, io: OrdersCliIo): Promise<number> {
  const parsed = parseCliArgs(
    argv,
    {
      amount: { type: 'string' },
      reason: { type: 'string' },
      event: { type: 'string' },
      json: { type: 'boolean' },
      url: { type: 'string' },
    },
    USAGE,
    io,
  );
  if (!parsed) return 2;
  const { values, positionals } = parsed;
  const [command, order, ...rest] = positionals;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const usage = (problem: string) => {
    io.err(`${problem}\n\n${USAGE}`);
    return 2;
  };
  if (rest.length > 0) return usage(`unexpected ${rest.join(' ')}`);
  const event = values.event === undefined ? undefined : Number(values.event);
  if (event !== undefined && !(Number.isSafeInteger(event) && event > 0))
    return usage(`--event must be an event id, not "${values.event}"`);
  const url = values.url ?? env.STOREFRONT_URL;
  const remote = url ? new Remote(url, env.CATALOG_ADMIN_KEY, io.fetch ?? fetch) : undefined;
  try {
    if (command === 'reconcile') {
      if (order) return usage('reconcile takes no order; use --event ID for one event');
      const events = remote ? await remote.reconcile(event) : await local(env, (admin) => admin.reconcile(event));
      if (values.json) io.out(JSON.stringify(events, null, 2));
      else if (events.length === 0) io.out(event ? `No charged orders for event ${event}.` : 'No charged orders.');
      else for (const line of formatReconciliation(events)) io.out(line);
      return events.every((e) => e.agrees) ? 0 : 1;
    }
    if (command !== 'refund') return usage(command ? `unknown command "${command}"` : 'a command is needed');
    if (!order === (event === undefined)) return usage('refund needs an order id, or --event ID, not both');
    const input = OperatorRefundSchema.safeParse({
      amount: values.amount === undefined ? undefined : Number(values.amount),
      reason: values.reason,
    });
    if (!input.success) return usage(input.error.issues.map((i) => i.message).join('; '));
    if (event !== undefined) {
      if (input.data.amount !== undefined) return usage('--amount refunds one order; an event is refunded in full');
      if (remote) return usage('refunding an event works on the store (DATABASE_URL or the embedded one), not --url');
      const recorded = await local(env, async (admin) => {
        const n = await admin.refundEvent(event, input.data.reason);
        await admin.makeDue();
        return n;
      });
      io.out(`${recorded} refunds recorded for event ${event}; see npm run orders -- reconcile --event ${event}`);
      return 0;
    }
    const refund = remote
      ? await remote.refund(order!, input.data)
      : await local(env, (admin) => refundNow(admin, order!, input.data));
    io.out(
      `${refund.id}: ${formatMoney(refund.amount)} of ${refund.order} ` +
        (refund.status === 'refunded'
          ? 'refunded'
          : refund.status === 'failed'
            ? `FAILED (${refund.lastError ?? 'no reason given'})`
            : 'recorded; a running storefront makes it within seconds'),
    );
    return refund.status === 'failed' ? 1 : 0;
  } catch (err) {
    io.err(err instanceof AppError || err instanceof Error ? err.message : String(err));
    return 1;
  }
}

/** Records a refund and makes it at once, waiting a little for a node that may have taken it first. */
async function refundNow(
  admin: OrderAdmin,
  orderId: string,
  input: { amount?: number; reason: string },
): Promise<RefundLine> {
  const recorded = await admin.refund(orderId, input);
  const until = Date.now() + WAIT_FOR_REFUND_MS;
  for (;;) {
    await admin.makeDue();
    const now = (await admin.refundsOf(orderId)).find((r) => r.id === recorded.id) ?? recorded;
    if (now.status !== 'pending' || Date.now() > until) return refundLine(now);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Runs `fn` with the order admin over the store (PostgreSQL, or the embedded one when no storefront holds it). */
function local<T>(env: NodeJS.ProcessEnv, fn: (admin: OrderAdmin) => Promise<T>): Promise<T> {
  return withCliStore(env, (sql) => {
    const processor = new SandboxPaymentProvider({ ledger: new SqlSandboxLedger(sql) });
    const store = new RefundStore(sql);
    const refunds = new RefundService({
      refunds: store,
      payments: new PaymentStore(sql),
      processor,
      logger: pino({ level: 'silent' }),
      now: () => new Date(),
    });
    return fn(new OrderAdmin({ refunds, store, processor }));
  });
}

/** The same through a running storefront's operators' API. */
class Remote {
  constructor(
    private readonly base: string,
    private readonly key: string | undefined,
    private readonly get: typeof fetch,
  ) {}

  async refund(order: string, input: { amount?: number; reason: string }): Promise<RefundLine> {
    const body = await this.call<{ refund: RefundLine }>(`/api/admin/orders/${encodeURIComponent(order)}/refunds`, {
      method: 'POST',
      body: input,
    });
    return body.refund;
  }

  async reconcile(event?: number): Promise<EventMoney[]> {
    const body = await this.call<{ events: EventMoney[] }>(`/api/admin/reconcile${event ? `?event=${event}` : ''}`);
    return body.events;
  }

  private call<T>(pathname: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
    if (!this.key) throw new Error('Set CATALOG_ADMIN_KEY to the storefront’s operators’ key to use --url');
    return callStorefront<T>(this.base, pathname, {
      ...init,
      headers: { [ADMIN_KEY_HEADER]: this.key },
      fetch: this.get,
    });
  }
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  process.exitCode = await runOrdersCli(process.argv.slice(2), process.env, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}
