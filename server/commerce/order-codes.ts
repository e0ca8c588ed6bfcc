import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The hex SHA-256 of a text: how an order's access code is kept. */
export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Letters and digits that cannot be read as one another (no I, O, 0 or 1). */
const ORDER_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A random code of `length` characters of the order alphabet (order ids, access codes). */
export function randomCode(length: number): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (b) => ORDER_ALPHABET[b % ORDER_ALPHABET.length]).join('');
}

/** A UUID-shaped id derived from a text (the checkout attempt of an idempotency key). */
export function uuidFrom(text: string): string {
  const h = sha256(text);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Whether two texts are equal, in a time that does not tell how much of them matched. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
