import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Payment } from '../../shared/schemas/commerce.js';
import type { Sql } from '../store/sql.js';
import { SandboxPaymentProvider } from './domain/payments.js';
import { OrderMailCodes } from './order-mail.js';
import { SqlSandboxLedger } from './sandbox-ledger.js';
import { openMigratedPglite } from '../store/test-stores.js';

let sql: Sql;
const card: Payment = { method: 'card', cardNumber: '4242424242424242', expMonth: 12, expYear: 2035, cvc: '123' };

beforeAll(async () => {
  sql = await openMigratedPglite();
});
afterAll(() => sql?.close());

/** Two processors over one store: two nodes of the storefront. */
const nodes = () => [
  new SandboxPaymentProvider({ ledger: new SqlSandboxLedger(sql) }),
  new SandboxPaymentProvider({ ledger: new SqlSandboxLedger(sql) }),
];

describe('the sandbox processor over the store (RULES 10.7, 19.3)', () => {
  it('answers a repeated key with its first authorization on any node, and refuses it for another amount', async () => {
    const [a, b] = nodes();
    const first = await a!.authorize({ amountCents: 7072, currency: 'USD', payment: card, idempotencyKey: 'pay-1' });
    expect(first.status).toBe('authorized');
    expect(await b!.authorize({ amountCents: 7072, currency: 'USD', payment: card, idempotencyKey: 'pay-1' })).toEqual(
      first,
    );
    expect(await b!.authorize({ amountCents: 100, currency: 'USD', payment: card, idempotencyKey: 'pay-1' })).toEqual({
      status: 'error',
      reason: 'idempotency_key_reused',
    });
    expect(await b!.findAuthorization('pay-1')).toBe(first.status === 'authorized' ? first.authorizationId : null);
  });

  it('captures on one node and refunds on another, once per key, never more than was captured', async () => {
    const [a, b] = nodes();
    const auth = await a!.authorize({ amountCents: 10_000, currency: 'USD', payment: card, idempotencyKey: 'pay-2' });
    if (auth.status !== 'authorized') throw new Error('not authorized');
    const chargeId = auth.authorizationId;
    expect(await b!.refund({ chargeId, amountCents: 100, idempotencyKey: 'rf-0' })).toEqual({
      status: 'error',
      reason: 'not_captured',
    });
    expect(await b!.capture(chargeId)).toEqual({ status: 'captured' });
    expect(await a!.void(chargeId)).toEqual({ status: 'error', reason: 'already_captured' });
    // The same refund asked on both nodes at once is made once.
    const [r1, r2] = await Promise.all([
      a!.refund({ chargeId, amountCents: 6_000, idempotencyKey: 'rf-1' }),
      b!.refund({ chargeId, amountCents: 6_000, idempotencyKey: 'rf-1' }),
    ]);
    expect(r1.status).toBe('refunded');
    expect(r2).toEqual(r1);
    expect(await a!.refund({ chargeId, amountCents: 5_000, idempotencyKey: 'rf-2' })).toEqual({
      status: 'error',
      reason: 'exceeds_captured',
    });
    expect(await a!.refund({ chargeId, amountCents: 3_000, idempotencyKey: 'rf-1' })).toEqual({
      status: 'error',
      reason: 'idempotency_key_reused',
    });
    expect((await b!.refund({ chargeId, amountCents: 4_000, idempotencyKey: 'rf-3' })).status).toBe('refunded');
    const record = await a!.charge(chargeId);
    expect(record).toMatchObject({ id: chargeId, amountCents: 10_000, status: 'captured' });
    expect(record!.refunds.map((r) => r.amountCents).sort()).toEqual([4_000, 6_000]);
    expect(await a!.refund({ chargeId: 'ch_nope', amountCents: 1, idempotencyKey: 'rf-4' })).toEqual({
      status: 'error',
      reason: 'unknown_charge',
    });
  });
});

describe('OrderMailCodes (RULES 19.4)', () => {
  it('makes a 20-character code an order id cannot be guessed from, the same on every node', () => {
    const codes = new OrderMailCodes('secret-one');
    const code = codes.code('ORD-AB12CD34EF');
    expect(code).toMatch(/^[A-Z2-7]{20}$/);
    expect(new OrderMailCodes('secret-one').code('ORD-AB12CD34EF')).toBe(code);
    expect(codes.code('ORD-AB12CD34EG')).not.toBe(code);
    expect(new OrderMailCodes('secret-two').code('ORD-AB12CD34EF')).not.toBe(code);
  });
});
