import { describe, expect, it } from 'vitest';
import { rangeBound, RowResultsQuerySchema } from './row-results.js';

describe('a row results range bound', () => {
  it.each([
    ['2026-11-01', 'since', '2026-11-01T00:00:00.000Z'],
    ['2026-11-01', 'until', '2026-11-02T00:00:00.000Z'],
    ['2026-12-31', 'until', '2027-01-01T00:00:00.000Z'],
    ['2026-11-01T09:30', 'since', '2026-11-01T09:30:00.000Z'],
    ['2026-11-01T09:30:15.250Z', 'until', '2026-11-01T09:30:15.250Z'],
    ['2026-11-01 09:30:00+02:00', 'since', '2026-11-01T07:30:00.000Z'],
    ['2026-11-01T09:30:00-0500', 'since', '2026-11-01T14:30:00.000Z'],
  ] as const)('%s as %s is %s', (value, end, instant) => {
    expect(rangeBound(value, end)?.toISOString()).toBe(instant);
  });

  it.each(['yesterday', '2026-02-30', '2026-13-01', '2026-11-01T25:00Z', '2026-11-01T09', '20261101', ''])(
    '%j is no bound',
    (value) => {
      expect(rangeBound(value, 'since')).toBeUndefined();
    },
  );

  it('needs until after since', () => {
    const query = { brand: 'base', page: 'home' };
    expect(RowResultsQuerySchema.safeParse({ ...query, since: '2026-11-01', until: '2026-11-01' }).success).toBe(true);
    expect(
      RowResultsQuerySchema.safeParse({ ...query, since: '2026-11-01T12:00Z', until: '2026-11-01T12:00Z' }).success,
    ).toBe(false);
  });

  it.each([
    ['0000-01-01T00:00:00Z', 'since'],
    ['0000-12-30', 'until'],
    ['9999-12-31', 'until'],
    ['9999-12-31T23:59:59-00:01', 'until'],
  ] as const)('%s as %s is out of the years a range may name', (value, end) => {
    expect(rangeBound(value, end)).toBeDefined();
    const parsed = RowResultsQuerySchema.safeParse({ brand: 'base', page: 'home', [end]: value });
    expect(parsed.error?.issues.map((i) => i.message)).toEqual([`${end} must be in the years 0001 to 9999 (UTC)`]);
  });

  it.each([
    ['0001-01-01', 'since'],
    ['9999-12-30', 'until'],
    ['9999-12-31T23:59:59+14:00', 'until'],
  ] as const)('%s as %s is in them', (value, end) => {
    expect(RowResultsQuerySchema.safeParse({ brand: 'base', page: 'home', [end]: value }).success).toBe(true);
  });
});
