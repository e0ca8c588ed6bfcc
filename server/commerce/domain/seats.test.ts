import { describe, expect, it } from 'vitest';
import { isGeneralAdmission, seatBlockStart, seatNumber } from './seats.js';

const listing = (id: number, section: string, row: string, quantity: number) => ({ id, section, row, quantity });

describe('seat blocks', () => {
  const listings = [
    listing(1, '112', 'F', 4),
    listing(2, '113', 'F', 6),
    listing(3, '112', 'F', 2),
    listing(4, 'Pit', 'GA', 5),
    listing(5, '112', 'G', 3),
  ];

  it('puts listings of one section and row side by side, in listing order, from seat 1', () => {
    expect(seatBlockStart(listings, 1)).toBe(1);
    expect(seatBlockStart(listings, 3)).toBe(5);
    expect(seatBlockStart(listings, 2)).toBe(1);
    expect(seatBlockStart(listings, 5)).toBe(1);
  });

  it('gives general admission and unknown listings no seats', () => {
    expect(seatBlockStart(listings, 4)).toBeNull();
    expect(seatBlockStart(listings, 99)).toBeNull();
    expect(isGeneralAdmission(' ga ')).toBe(true);
    expect(seatNumber(null, 3)).toBeNull();
    expect(seatNumber(5, 1)).toBe(6);
  });

  it('never overlaps two listings’ blocks in a row', () => {
    const seats = new Map<string, Set<number>>();
    for (const l of listings) {
      const start = seatBlockStart(listings, l.id);
      if (start === null) continue;
      const row = seats.get(`${l.section}/${l.row}`) ?? new Set();
      for (let i = 0; i < l.quantity; i++) {
        expect(row.has(start + i)).toBe(false);
        row.add(start + i);
      }
      seats.set(`${l.section}/${l.row}`, row);
    }
  });
});
