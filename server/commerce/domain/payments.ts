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
const sandboxId = () => `ch_sandbox_${randomBytes(12).toString('hex')}`;

/**
 * An in-memory payment provider for development and tests. Results follow SANDBOX_TEST_CARDS; a repeated
 * idempotency key returns the first result (even while that attempt is in flight), and one reused for a
 * different amount or card is an `idempotency_key_reused` error, as real processors answer.
 */
export class SandboxPaymentProvider implements PaymentProvider {
  private readonly attempts = new Map<string, { fingerprint: string; result: Promise<AuthorizationResult> }>();
  private readonly ledger = new Map<string, SandboxAuthorization>();
  private readonly now: () => Date;

  constructor(options: { now?: () => Date } = {}) {
    this.now = options.now ?? (() => new Date());
  }

  /** Every authorization, in order, with where it ended. */
  get authorizations(): readonly SandboxAuthorization[] {
    return [...this.ledger.values()].map((a) => ({ ...a }));
  }

  /** The money that moved: every captured authorization, in order. */
  get charges(): readonly SandboxAuthorization[] {
    return this.authorizations.filter((a) => a.status === 'captured');
  }

  authorize(input: AuthorizeInput): Promise<AuthorizationResult> {
    const print = fingerprint(input);
    const previous = this.attempts.get(input.idempotencyKey);
    if (previous)
      return previous.fingerprint === print
        ? previous.result
        : Promise.resolve({ status: 'error', reason: 'idempotency_key_reused' });
    const result = Promise.resolve(this.attempt(input));
    this.attempts.set(input.idempotencyKey, { fingerprint: print, result });
    return result;
  }

  async capture(authorizationId: string): Promise<SettlementResult> {
    return this.settle(authorizationId, 'captured');
  }

  async findAuthorization(idempotencyKey: string): Promise<string | null> {
    const attempt = await this.attempts.get(idempotencyKey)?.result;
    return attempt?.status === 'authorized' ? attempt.authorizationId : null;
  }

  async void(authorizationId: string): Promise<SettlementResult> {
    return this.settle(authorizationId, 'voided');
  }

  /** An authorization ends captured or voided once: the same end again is a no-op, the other one an error. */
  private settle(authorizationId: string, end: 'captured' | 'voided'): SettlementResult {
    const auth = this.ledger.get(authorizationId);
    if (!auth) return { status: 'error', reason: 'unknown_authorization' };
    if (auth.status !== 'authorized' && auth.status !== end)
      return { status: 'error', reason: `already_${auth.status}` };
    auth.status = end;
    return { status: end };
  }

  private attempt(input: AuthorizeInput): AuthorizationResult {
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0)
      return { status: 'error', reason: 'invalid_amount' };
    const outcome = outcomeOf(input.payment, this.now());
    if (outcome.status !== 'authorized') return outcome;
    const id = sandboxId();
    const p = input.payment;
    this.ledger.set(id, {
      id,
      amountCents: input.amountCents,
      method: p.method,
      last4: p.method === 'card' ? digitsOf(p.cardNumber).slice(-4) : '',
      idempotencyKey: input.idempotencyKey,
      status: 'authorized',
    });
    return { status: 'authorized', authorizationId: id };
  }
}
