import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A ticket's barcode value: `<ticketId>.<signature>`, the signature the first 16 bytes of HMAC-SHA256 of the
 * ticket id, base64url. Unguessable without the key, checked without a lookup; whether it was used is the
 * store's (one conditional update admits it once).
 */
export const SIGNATURE_BYTES = 16;
const TICKET_ID = /^T[A-Z0-9]{14}$/;
const BARCODE = /^(T[A-Z0-9]{14})\.([A-Za-z0-9_-]{22})$/;
/** Longest text a scanner may send (a barcode is 38 characters). */
export const MAX_BARCODE_LENGTH = 200;

export class TicketBarcodes {
  constructor(private readonly key: Uint8Array) {
    if (key.byteLength < 32) throw new RangeError('the ticket signing key must be at least 32 bytes');
  }

  /** The key of the ticket barcodes from a secret: its own, or derived from the session secret. */
  static derivedKey(secret: Uint8Array | string, purpose = 'ticket-barcodes'): Uint8Array {
    return new Uint8Array(createHmac('sha256', secret).update(purpose).digest());
  }

  private signature(ticketId: string): string {
    return createHmac('sha256', this.key).update(ticketId).digest().subarray(0, SIGNATURE_BYTES).toString('base64url');
  }

  sign(ticketId: string): string {
    if (!TICKET_ID.test(ticketId)) throw new RangeError(`not a ticket id: ${ticketId}`);
    return `${ticketId}.${this.signature(ticketId)}`;
  }

  /** The ticket id a barcode value carries when its signature is ours; null for anything else. */
  verify(barcode: string): string | null {
    const m = BARCODE.exec(barcode);
    if (!m) return null;
    const expected = Buffer.from(this.signature(m[1]!));
    const given = Buffer.from(m[2]!);
    return expected.length === given.length && timingSafeEqual(expected, given) ? m[1]! : null;
  }
}

export const TICKET_ID_LENGTH = 15;
export const isTicketId = (id: string) => TICKET_ID.test(id);

const ID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A new ticket id: `T` and 14 random characters of 32 (70 bits). */
export function newTicketId(): string {
  return `T${Array.from(randomBytes(TICKET_ID_LENGTH - 1), (b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('')}`;
}
