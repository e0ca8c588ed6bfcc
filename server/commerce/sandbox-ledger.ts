import type { Sql } from '../store/sql.js';
import type {
  AuthorizationResult,
  RefundErrorReason,
  SandboxAttempt,
  SandboxAuthorization,
  SandboxLedger,
  SandboxRefund,
} from './domain/payments.js';
import { iso, num } from './store-rows.js';

/**
 * The sandbox processor's records in the store (`sandbox_attempts`, `sandbox_charges`, `sandbox_refunds`), shared
 * by every node as a real processor's are: an authorization one node took is captured, voided or refunded by any
 * other, after that node has stopped. Each method is one transaction or one conditional statement.
 */
export class SqlSandboxLedger implements SandboxLedger {
  constructor(private readonly sql: Sql) {}

  firstAttempt(attempt: SandboxAttempt): Promise<SandboxAttempt> {
    return this.sql.transaction(async (tx) => {
      const inserted = await tx.query(
        'INSERT INTO sandbox_attempts (key, fingerprint, result) VALUES ($1, $2, $3) ' +
          'ON CONFLICT (key) DO NOTHING RETURNING key',
        [attempt.key, attempt.fingerprint, JSON.stringify(attempt.result)],
      );
      if (inserted.length > 0) {
        const a = attempt.authorization;
        if (a)
          await tx.query(
            'INSERT INTO sandbox_charges (id, idempotency_key, amount_cents, method, last4, status) ' +
              'VALUES ($1, $2, $3, $4, $5, $6)',
            [a.id, a.idempotencyKey, a.amountCents, a.method, a.last4, a.status],
          );
        return attempt;
      }
      const [first] = await tx.query('SELECT key, fingerprint, result FROM sandbox_attempts WHERE key = $1', [
        attempt.key,
      ]);
      const result = parsed<AuthorizationResult>(first!.result);
      const [charge] = await tx.query('SELECT * FROM sandbox_charges WHERE idempotency_key = $1', [attempt.key]);
      return {
        key: attempt.key,
        fingerprint: String(first!.fingerprint),
        result,
        authorization: charge ? chargeRow(charge) : null,
      };
    });
  }

  async settle(id: string, end: 'captured' | 'voided'): Promise<SandboxAuthorization | null> {
    const moved = await this.sql.query(
      "UPDATE sandbox_charges SET status = $2 WHERE id = $1 AND status = 'authorized' RETURNING *",
      [id, end],
    );
    if (moved[0]) return chargeRow(moved[0]);
    const [row] = await this.sql.query('SELECT * FROM sandbox_charges WHERE id = $1', [id]);
    return row ? chargeRow(row) : null;
  }

  refund(
    refund: SandboxRefund,
    allowed: (charge: SandboxAuthorization, refunded: number) => RefundErrorReason | null,
  ): Promise<{ refund: SandboxRefund } | { refused: RefundErrorReason }> {
    return this.sql.transaction(async (tx) => {
      // The charge's row is locked first: two refunds of one charge are judged one after the other.
      const [charge] = await tx.query('SELECT * FROM sandbox_charges WHERE id = $1 FOR UPDATE', [refund.chargeId]);
      const [first] = await tx.query('SELECT * FROM sandbox_refunds WHERE idempotency_key = $1', [
        refund.idempotencyKey,
      ]);
      if (first) return { refund: refundRow(first) };
      if (!charge) return { refused: 'unknown_charge' as const };
      const [sum] = await tx.query<{ refunded: string | number }>(
        'SELECT coalesce(sum(amount_cents), 0) AS refunded FROM sandbox_refunds WHERE charge_id = $1',
        [refund.chargeId],
      );
      const refused = allowed(chargeRow(charge), num(sum!.refunded));
      if (refused) return { refused };
      await tx.query(
        'INSERT INTO sandbox_refunds (id, idempotency_key, charge_id, amount_cents, at) VALUES ($1, $2, $3, $4, $5)',
        [refund.id, refund.idempotencyKey, refund.chargeId, refund.amountCents, refund.at],
      );
      return { refund };
    });
  }

  async charge(id: string): Promise<(SandboxAuthorization & { refunds: SandboxRefund[] }) | null> {
    const [row] = await this.sql.query('SELECT * FROM sandbox_charges WHERE id = $1', [id]);
    if (!row) return null;
    const refunds = await this.sql.query('SELECT * FROM sandbox_refunds WHERE charge_id = $1 ORDER BY at, id', [id]);
    return { ...chargeRow(row), refunds: refunds.map(refundRow) };
  }

  async findAuthorization(key: string): Promise<string | null> {
    const [row] = await this.sql.query('SELECT id FROM sandbox_charges WHERE idempotency_key = $1', [key]);
    return row ? String(row.id) : null;
  }
}

const parsed = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

function chargeRow(r: Record<string, unknown>): SandboxAuthorization {
  return {
    id: String(r.id),
    amountCents: num(r.amount_cents),
    method: r.method as SandboxAuthorization['method'],
    last4: String(r.last4),
    idempotencyKey: String(r.idempotency_key),
    status: r.status as SandboxAuthorization['status'],
  };
}

function refundRow(r: Record<string, unknown>): SandboxRefund {
  return {
    id: String(r.id),
    chargeId: String(r.charge_id),
    amountCents: num(r.amount_cents),
    idempotencyKey: String(r.idempotency_key),
    at: iso(r.at),
  };
}
