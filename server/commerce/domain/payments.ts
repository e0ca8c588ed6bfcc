import { createHash, randomBytes } from 'node:crypto';
import type { Payment } from '../../../shared/schemas/commerce.js';
import { paymentFailedEventName } from '../../../shared/rules/checkout-tracking.js';

export type DeclineReason = 'card_declined' | 'insufficient_funds' | 'invalid_number' | 'expired_card';
export type PaymentErrorReason = 'processing_error' | 'invalid_amount' | 'idempotency_key_reused';

export type AuthorizationResult =
  | { status: 'authorized'; authorizationId: string }
  | { status: 'declined'; reason: DeclineReason }
  | { status: 'error'; reason: PaymentErrorReason };

/** The end of an authorization: money moved (captured), released (voided), or the processor refused the step. */
export type SettlementResult =
  | { status: 'captured' | 'voided' }
  | { status: 'error'; reason: 'unknown_authorization' | 'already_captured' | 'already_voided' };

/** Why a processor refuses a refund. */
export type RefundErrorReason =
  'unknown_charge' | 'not_captured' | 'exceeds_captured' | 'invalid_amount' | 'idempotency_key_reused';

export type RefundResult = { status: 'refunded'; refundId: string } | { status: 'error'; reason: RefundErrorReason };

export interface RefundInput {
  /** The captured authorization (the charge) the money goes back from. */
  chargeId: string;
  amountCents: number;
  /** The same key always yields the first refund: a retry after a lost answer never pays back twice. */
  idempotencyKey: string;
}

/** A charge as the processor's own records have it: what was captured and every refund made from it. */
export interface ProcessorCharge {
  id: string;
  amountCents: number;
  status: 'authorized' | 'captured' | 'voided';
  refunds: readonly { id: string; amountCents: number; at: string }[];
}

export interface AuthorizeInput {
  amountCents: number;
  currency: 'USD';
  payment: Payment;
  /** The same key always yields the first attempt's result; one card is never authorized twice for one attempt. */
  idempotencyKey: string;
}

/**
 * The port to a card processor: a live gateway in production, the sandbox below everywhere else. Money moves
 * in two steps, as with every card network: an authorization reserves the amount on the card, and only a
 * capture takes it; a void releases an authorization that will not be captured. The checkout authorizes,
 * commits the order, and then captures, so an order that could not be written never costs the buyer anything.
 * A refund returns captured money, in full or in part, under an idempotency key.
 */
export interface PaymentProvider {
  authorize(input: AuthorizeInput): Promise<AuthorizationResult>;
  /** Takes the authorized amount. Capturing one already captured answers `captured` again (a retry is safe). */
  capture(authorizationId: string): Promise<SettlementResult>;
  /** Releases an authorization. Voiding one already voided answers `voided` again; a captured one cannot be voided. */
  void(authorizationId: string): Promise<SettlementResult>;
  /**
   * The authorization made under an idempotency key, or null when there is none: how an attempt whose answer
   * never came back (the processor timed out, the node stopped) is found again to be voided.
   */
  findAuthorization(idempotencyKey: string): Promise<string | null>;
  /** Returns captured money; the refunds of one charge never add up to more than was captured. */
  refund(input: RefundInput): Promise<RefundResult>;
  /** The processor's record of a charge (null when it has none): what reconciliation compares ours with. */
  charge(chargeId: string): Promise<ProcessorCharge | null>;
}

type Outcome =
  | { status: 'authorized' }
  | { status: 'declined'; reason: DeclineReason }
  | { status: 'error'; reason: PaymentErrorReason };

/**
 * The sandbox's test cards (the numbers card processors publish for testing). Any other Luhn-valid number
 * succeeds, a Luhn-invalid one is declined as `invalid_number`, and a card whose expiry month has passed is
 * declined as `expired_card`.
 */
export const SANDBOX_TEST_CARDS = [
  { number: '4242 4242 4242 4242', outcome: { status: 'authorized' }, description: 'Succeeds' },
  {
    number: '4000 0000 0000 0002',
    outcome: { status: 'declined', reason: 'card_declined' },
    description: 'Declined by the bank',
  },
  {
    number: '4000 0000 0000 9995',
    outcome: { status: 'declined', reason: 'insufficient_funds' },
    description: 'Declined: insufficient funds',
  },
  {
    number: '4000 0000 0000 0119',
    outcome: { status: 'error', reason: 'processing_error' },
    description: 'Processor error; the buyer may try again',
  },
] as const satisfies readonly { number: string; outcome: Outcome; description: string }[];

/** The Apple Pay token the sandbox accepts (RULES 10.7); any other token is declined. */
export const SANDBOX_APPLE_PAY_SUCCESS_TOKEN = 'applepay-success';

const digitsOf = (number: string) => number.replace(/[\s-]/g, '');

/** The Luhn checksum of a card number (spaces and dashes ignored); false for anything but 12–19 digits. */
export function luhnValid(number: string): boolean {
  const digits = digitsOf(number);
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** A card is good through the last day of its expiry month (UTC). */
export function cardExpired(expMonth: number, expYear: number, now: Date): boolean {
  return expYear * 12 + expMonth < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

/** RULES 9.9: the tracking event for a failed payment of this kind ("card_failed", "applepay_failed"). */
export function paymentFailedEvent(payment: Payment): string {
  return paymentFailedEventName(payment.method);
}

const TEST_CARD_OUTCOMES: ReadonlyMap<string, Outcome> = new Map(
  SANDBOX_TEST_CARDS.map((c) => [digitsOf(c.number), c.outcome]),
);

function outcomeOf(payment: Payment, now: Date): Outcome {
  if (payment.method === 'applepay') {
    return payment.token === SANDBOX_APPLE_PAY_SUCCESS_TOKEN
      ? { status: 'authorized' }
      : { status: 'declined', reason: 'card_declined' };
  }
  if (!luhnValid(payment.cardNumber)) return { status: 'declined', reason: 'invalid_number' };
  if (cardExpired(payment.expMonth, payment.expYear, now)) return { status: 'declined', reason: 'expired_card' };
  return TEST_CARD_OUTCOMES.get(digitsOf(payment.cardNumber)) ?? { status: 'authorized' };
}

export interface SandboxAuthorization {
  id: string;
  amountCents: number;
  method: Payment['method'];
  /** Last four digits of a card; never the whole number. */
  last4: string;
  idempotencyKey: string;
  status: 'authorized' | 'captured' | 'voided';
}

export interface SandboxRefund {
  id: string;
  chargeId: string;
  amountCents: number;
  idempotencyKey: string;
  at: string;
}

/** One authorization attempt as the sandbox keeps it: what the request was, and what it was answered. */
export interface SandboxAttempt {
  key: string;
  fingerprint: string;
  result: AuthorizationResult;
  /** The authorization it made, when it made one. */
  authorization: SandboxAuthorization | null;
}

/**
 * Where the sandbox keeps its records. Each method is atomic on its own: the in-memory ledger for unit tests,
 * the store's (`sandbox-ledger.ts`) for a running storefront, so that any node settles or refunds a payment
 * another node took, after that node has stopped.
 */
export interface SandboxLedger {
  /** The attempt stored under its key: `attempt` when the key is new, else the one stored first. */
  firstAttempt(attempt: SandboxAttempt): Promise<SandboxAttempt>;
  /** Moves an authorization to `end` when it is `authorized` (or already there); the authorization as it now is. */
  settle(id: string, end: 'captured' | 'voided'): Promise<SandboxAuthorization | null>;
  /**
   * Records a refund unless its key is taken, when `allowed` (given the charge and its refunds so far) says yes;
   * answers the refund stored under the key, or the charge as it was when it was refused.
   */
  refund(
    refund: SandboxRefund,
    allowed: (charge: SandboxAuthorization, refunded: number) => RefundErrorReason | null,
  ): Promise<{ refund: SandboxRefund } | { refused: RefundErrorReason }>;
  charge(id: string): Promise<(SandboxAuthorization & { refunds: SandboxRefund[] }) | null>;
  findAuthorization(key: string): Promise<string | null>;
}

/** The sandbox's records in this process's memory (tests read them back synchronously). */
export class MemorySandboxLedger implements SandboxLedger {
  private readonly attempts = new Map<string, SandboxAttempt>();
  private readonly ledger = new Map<string, SandboxAuthorization>();
  private readonly refunds = new Map<string, SandboxRefund>();

  get authorizations(): readonly SandboxAuthorization[] {
    return [...this.ledger.values()].map((a) => ({ ...a }));
  }

  get refundsMade(): readonly SandboxRefund[] {
    return [...this.refunds.values()].map((r) => ({ ...r }));
  }

  async firstAttempt(attempt: SandboxAttempt): Promise<SandboxAttempt> {
    const first = this.attempts.get(attempt.key);
    if (first) return first;
    this.attempts.set(attempt.key, attempt);
    if (attempt.authorization) this.ledger.set(attempt.authorization.id, { ...attempt.authorization });
    return attempt;
  }

  async settle(id: string, end: 'captured' | 'voided'): Promise<SandboxAuthorization | null> {
    const auth = this.ledger.get(id);
    if (!auth) return null;
    if (auth.status === 'authorized') auth.status = end;
    return { ...auth };
  }

  async refund(
    refund: SandboxRefund,
    allowed: (charge: SandboxAuthorization, refunded: number) => RefundErrorReason | null,
  ): Promise<{ refund: SandboxRefund } | { refused: RefundErrorReason }> {
    const first = this.refunds.get(refund.idempotencyKey);
    if (first) return { refund: { ...first } };
    const charge = this.ledger.get(refund.chargeId);
    if (!charge) return { refused: 'unknown_charge' };
    const refunded = [...this.refunds.values()]
      .filter((r) => r.chargeId === charge.id)
      .reduce((sum, r) => sum + r.amountCents, 0);
    const refused = allowed({ ...charge }, refunded);
    if (refused) return { refused };
    this.refunds.set(refund.idempotencyKey, { ...refund });
    return { refund: { ...refund } };
  }

  async charge(id: string): Promise<(SandboxAuthorization & { refunds: SandboxRefund[] }) | null> {
    const auth = this.ledger.get(id);
    if (!auth) return null;
    return { ...auth, refunds: [...this.refunds.values()].filter((r) => r.chargeId === id).map((r) => ({ ...r })) };
  }

  async findAuthorization(key: string): Promise<string | null> {
    const attempt = this.attempts.get(key);
    return attempt?.result.status === 'authorized' ? attempt.result.authorizationId : null;
  }
}

/** What makes two attempts "the same request", without keeping the card number. */
function fingerprint(input: AuthorizeInput): string {
  const p = input.payment;
  const instrument =
    p.method === 'card'
      ? `card:${digitsOf(p.cardNumber).slice(-4)}:${p.expMonth}/${p.expYear}`
      : `applepay:${createHash('sha256').update(p.token).digest('hex')}`;
  return `${input.amountCents}:${input.currency}:${instrument}`;
}

/** Random, so ids never repeat across restarts or nodes (a counter restarted at 000001 on every start). */
const sandboxId = (prefix: 'ch' | 're') => `${prefix}_sandbox_${randomBytes(12).toString('hex')}`;

/**
 * The sandbox payment provider for development and tests. Results follow SANDBOX_TEST_CARDS; a repeated
 * idempotency key returns the first result, and one reused for a different amount or card is an
 * `idempotency_key_reused` error, as real processors answer. A refund under a key already used returns that
 * refund (or the same error for another amount or charge); refunds never add up to more than was captured.
 * Its records are kept in a ledger: memory by default, the store's in a running storefront.
 */
export class SandboxPaymentProvider implements PaymentProvider {
  private readonly now: () => Date;
  private readonly ledger: SandboxLedger;
  private readonly memory: MemorySandboxLedger | null;

  constructor(options: { now?: () => Date; ledger?: SandboxLedger } = {}) {
    this.now = options.now ?? (() => new Date());
    this.memory = options.ledger ? null : new MemorySandboxLedger();
    this.ledger = options.ledger ?? this.memory!;
  }

  /** Every authorization of an in-memory sandbox, in order, with where it ended (empty over a stored ledger). */
  get authorizations(): readonly SandboxAuthorization[] {
    return this.memory?.authorizations ?? [];
  }

  /** The money that moved in an in-memory sandbox: every captured authorization, in order. */
  get charges(): readonly SandboxAuthorization[] {
    return this.authorizations.filter((a) => a.status === 'captured');
  }

  /** Every refund an in-memory sandbox made, in order. */
  get refunds(): readonly SandboxRefund[] {
    return this.memory?.refundsMade ?? [];
  }

  async authorize(input: AuthorizeInput): Promise<AuthorizationResult> {
    const print = fingerprint(input);
    const result = this.attempt(input);
    const p = input.payment;
    const first = await this.ledger.firstAttempt({
      key: input.idempotencyKey,
      fingerprint: print,
      result,
      authorization:
        result.status === 'authorized'
          ? {
              id: result.authorizationId,
              amountCents: input.amountCents,
              method: p.method,
              last4: p.method === 'card' ? digitsOf(p.cardNumber).slice(-4) : '',
              idempotencyKey: input.idempotencyKey,
              status: 'authorized',
            }
          : null,
    });
    return first.fingerprint === print ? first.result : { status: 'error', reason: 'idempotency_key_reused' };
  }

  capture(authorizationId: string): Promise<SettlementResult> {
    return this.settle(authorizationId, 'captured');
  }

  findAuthorization(idempotencyKey: string): Promise<string | null> {
    return this.ledger.findAuthorization(idempotencyKey);
  }

  void(authorizationId: string): Promise<SettlementResult> {
    return this.settle(authorizationId, 'voided');
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0)
      return { status: 'error', reason: 'invalid_amount' };
    const outcome = await this.ledger.refund(
      {
        id: sandboxId('re'),
        chargeId: input.chargeId,
        amountCents: input.amountCents,
        idempotencyKey: input.idempotencyKey,
        at: this.now().toISOString(),
      },
      (charge, refunded) => {
        if (charge.status !== 'captured') return 'not_captured';
        return refunded + input.amountCents > charge.amountCents ? 'exceeds_captured' : null;
      },
    );
    if ('refused' in outcome) return { status: 'error', reason: outcome.refused };
    const { refund } = outcome;
    if (refund.chargeId !== input.chargeId || refund.amountCents !== input.amountCents)
      return { status: 'error', reason: 'idempotency_key_reused' };
    return { status: 'refunded', refundId: refund.id };
  }

  async charge(chargeId: string): Promise<ProcessorCharge | null> {
    const found = await this.ledger.charge(chargeId);
    if (!found) return null;
    return {
      id: found.id,
      amountCents: found.amountCents,
      status: found.status,
      refunds: found.refunds.map((r) => ({ id: r.id, amountCents: r.amountCents, at: r.at })),
    };
  }

  /** An authorization ends captured or voided once: the same end again is a no-op, the other one an error. */
  private async settle(authorizationId: string, end: 'captured' | 'voided'): Promise<SettlementResult> {
    const auth = await this.ledger.settle(authorizationId, end);
    if (!auth) return { status: 'error', reason: 'unknown_authorization' };
    if (auth.status === end) return { status: end };
    return { status: 'error', reason: auth.status === 'captured' ? 'already_captured' : 'already_voided' };
  }

  private attempt(input: AuthorizeInput): AuthorizationResult {
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0)
      return { status: 'error', reason: 'invalid_amount' };
    const outcome = outcomeOf(input.payment, this.now());
    if (outcome.status !== 'authorized') return outcome;
    return { status: 'authorized', authorizationId: sandboxId('ch') };
  }
}
