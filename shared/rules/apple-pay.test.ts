import { describe, expect, it, vi } from 'vitest';
import { canOfferApplePay } from './apple-pay.js';

describe('canOfferApplePay (RULES 10.4: version 3 supported and can make payments)', () => {
  const env = (supports: boolean | (() => never), can: boolean | (() => never)) => ({
    supportsVersion: vi.fn((v: number) => (typeof supports === 'function' ? supports() : supports && v === 3)),
    canMakePayments: vi.fn(() => (typeof can === 'function' ? can() : can)),
  });
  const boom = (): never => {
    throw new Error('InvalidAccessError');
  };

  it.each<[string, ReturnType<typeof env> | undefined, boolean]>([
    ['both', env(true, true), true],
    ['no version 3', env(false, true), false],
    ['cannot make payments', env(true, false), false],
    ['no ApplePaySession', undefined, false],
    ['supportsVersion throws', env(boom, true), false],
    ['canMakePayments throws', env(true, boom), false],
  ])('%s → %s', (_case, e, offered) => {
    expect(canOfferApplePay(e)).toBe(offered);
  });

  it('asks about version 3', () => {
    const e = env(true, true);
    canOfferApplePay(e);
    expect(e.supportsVersion).toHaveBeenCalledWith(3);
  });
});
