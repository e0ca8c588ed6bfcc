import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TicketBarcodes, isTicketId, newTicketId } from './ticket-barcode.js';

describe('ticket barcodes', () => {
  const barcodes = new TicketBarcodes(new Uint8Array(randomBytes(32)));

  it('signs a ticket id and finds it again', () => {
    const id = newTicketId();
    expect(isTicketId(id)).toBe(true);
    const value = barcodes.sign(id);
    expect(value).toMatch(/^T[A-Z0-9]{14}\.[A-Za-z0-9_-]{22}$/);
    expect(barcodes.verify(value)).toBe(id);
  });

  it('refuses a tampered signature, another ticket’s id, another key’s value and junk', () => {
    const id = newTicketId();
    const value = barcodes.sign(id);
    const last = value.at(-1) === 'A' ? 'B' : 'A';
    expect(barcodes.verify(value.slice(0, -1) + last)).toBeNull();
    const other = newTicketId();
    expect(barcodes.verify(`${other}.${value.split('.')[1]}`)).toBeNull();
    expect(new TicketBarcodes(new Uint8Array(randomBytes(32))).verify(value)).toBeNull();
    for (const junk of ['', '.', 'T', `${id}.`, `${value}x`, value.toLowerCase(), `${value}\n`])
      expect(barcodes.verify(junk)).toBeNull();
  });

  it('derives the same key from the same secret on every node, and another for another secret', () => {
    const a = new TicketBarcodes(TicketBarcodes.derivedKey('x'.repeat(32)));
    const b = new TicketBarcodes(TicketBarcodes.derivedKey('x'.repeat(32)));
    const c = new TicketBarcodes(TicketBarcodes.derivedKey('y'.repeat(32)));
    const value = a.sign(newTicketId());
    expect(b.verify(value)).not.toBeNull();
    expect(c.verify(value)).toBeNull();
    expect(() => new TicketBarcodes(new Uint8Array(8))).toThrow(RangeError);
  });
});
