import { describe, expect, it } from 'vitest';
import { surrogateKey, surrogateKeyHeader } from './surrogate-keys.js';

describe('surrogate keys (RULES 13.7)', () => {
  it('are a short plain tag as it is, and a digest of any other, the same on every call', () => {
    expect(surrogateKey('collection:Event')).toBe('collection:Event');
    expect(surrogateKey('Event:101703')).toBe('Event:101703');
    const row = 'row:base||popular|abc|40.71|-74.01|America/New_York|1700000000000';
    expect(surrogateKey(row)).toMatch(/^k:[A-Za-z0-9_-]{22}$/);
    expect(surrogateKey(row)).toBe(surrogateKey(row));
    expect(surrogateKey(`${row}1`)).not.toBe(surrogateKey(row));
    expect(surrogateKey('a b')).toMatch(/^k:/);
    expect(surrogateKey('x'.repeat(65))).toMatch(/^k:/);
  });

  it('go in one header, each once, space-separated', () => {
    expect(surrogateKeyHeader(['site', 'flags', 'site', 'Event:1'])).toBe('site flags Event:1');
    expect(surrogateKeyHeader([])).toBe('');
  });
});
