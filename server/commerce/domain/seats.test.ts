import { describe, expect, it } from 'vitest';
import { companionBlockStart, isGeneralAdmission, seatBlockStart, seatNumber } from './seats.js';

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

describe('companion seats (RULES 10.16)', () => {
  const listings = [
    { id: 1, section: '112', row: 'F', quantity: 4, companionSeats: 2 },
    { id: 2, section: '112', row: 'F', quantity: 3 },
    { id: 3, section: '112', row: 'F', quantity: 2, companionSeats: 2 },
    { id: 4, section: 'Pit', row: 'GA', quantity: 5, companionSeats: 5 },
    { id: 5, section: '113', row: 'F', quantity: 2, companionSeats: 1 },
  ];

  it('are numbered after every block of the row, in listing order, leaving the blocks where they were', () => {
    expect(seatBlockStart(listings, 1)).toBe(1);
    expect(seatBlockStart(listings, 2)).toBe(5);
    expect(seatBlockStart(listings, 3)).toBe(8);
    expect(companionBlockStart(listings, 1)).toBe(10);
    expect(companionBlockStart(listings, 3)).toBe(12);
    expect(companionBlockStart(listings, 5)).toBe(3);
  });

  it('have no numbers in general admission or for an unknown listing', () => {
    expect(companionBlockStart(listings, 4)).toBeNull();
    expect(companionBlockStart(listings, 99)).toBeNull();
  });
});
