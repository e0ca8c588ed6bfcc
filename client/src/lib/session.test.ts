// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../test/fetch-stub.js';
import { ensureGuestSession, forgetGuestSession, getStoredToken } from './session.js';

/** A token as the server signs it, as far as the client reads it (claims only: the server verifies). */
const token = (sub: string) =>
  `h.${btoa(JSON.stringify({ sub, exp: Math.floor(Date.now() / 1000) + 3600 })).replace(/=+$/, '')}.s`;

afterEach(() => {
  forgetGuestSession();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the guest session', () => {
  it('keeps the token of a session answer', async () => {
    const issued = token('guest-1');
    mockFetch({
      'POST /api/customers/session': () => json({ sessionToken: issued, expiresAt: '2027-01-01T00:00:00Z' }),
    });
    expect(await ensureGuestSession()).toBe(issued);
    expect(getStoredToken()).toBe(issued);
  });

  it.each([
    ['without an expiry', { sessionToken: 'x' }],
    ['with a token that is not text', { sessionToken: 7, expiresAt: '2027-01-01T00:00:00Z' }],
    ['that is not an object', null],
  ])('keeps nothing of an answer %s, and says so in the log', async (_label, body) => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({ 'POST /api/customers/session': () => json(body) });
    expect(await ensureGuestSession()).toBeNull();
    expect(getStoredToken()).toBeNull();
    expect(logged).toHaveBeenCalledWith('Error during guest login', expect.any(Error));
  });
});
