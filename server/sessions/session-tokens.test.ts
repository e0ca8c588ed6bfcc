import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sessionSecret, SessionTokens } from './session-tokens.js';

const secret = new TextEncoder().encode('s'.repeat(32));
let tmp: string | undefined;
afterAll(() => (tmp ? rm(tmp, { recursive: true, force: true }) : undefined));

describe('SessionTokens', () => {
  it('verifies its own tokens on any node with the same secret', async () => {
    const { token, session } = await new SessionTokens(secret, 3600).issue();
    await expect(new SessionTokens(secret, 3600).verify(token)).resolves.toEqual(session);
  });

  it('refuses an expired token with session_expired', async () => {
    const tokens = new SessionTokens(secret, 60);
    const { token } = await tokens.issue(new Date('2026-01-01T00:00:00Z'));
    await expect(tokens.verify(token, new Date('2026-01-01T00:00:59Z'))).resolves.toBeTruthy();
    await expect(tokens.verify(token, new Date('2026-01-01T00:02:00Z'))).rejects.toMatchObject({
      status: 401,
      code: 'session_expired',
    });
  });

  it('remembers a verified token until it expires, and never a refused one', async () => {
    const tokens = new SessionTokens(secret, 60);
    const { token, session } = await tokens.issue(new Date('2026-01-01T00:00:00Z'));
    expect(tokens.peek(token, new Date('2026-01-01T00:00:10Z'))).toBeUndefined();
    await tokens.verify(token, new Date('2026-01-01T00:00:10Z'));
    expect(tokens.peek(token, new Date('2026-01-01T00:00:30Z'))).toEqual(session);
    expect(tokens.peek(token, new Date('2026-01-01T00:01:00Z'))).toBeUndefined();
    const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    await expect(tokens.verify(tampered, new Date('2026-01-01T00:00:10Z'))).rejects.toMatchObject({
      code: 'invalid_session',
    });
    expect(tokens.peek(tampered, new Date('2026-01-01T00:00:10Z'))).toBeUndefined();
  });

  it('refuses a token signed with another secret', async () => {
    const { token } = await new SessionTokens(new TextEncoder().encode('o'.repeat(32)), 60).issue();
    await expect(new SessionTokens(secret, 60).verify(token)).rejects.toMatchObject({ code: 'invalid_session' });
  });

  it('refuses a secret shorter than 32 bytes', () => {
    expect(() => new SessionTokens(new Uint8Array(31), 60)).toThrow(/32 bytes/);
  });
});

describe('sessionSecret', () => {
  it('generates one secret outside production, keeps it private and reuses it', async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'secret-'));
    const first = await sessionSecret({ dataDir: tmp, production: false });
    const again = await sessionSecret({ dataDir: tmp, production: false });
    expect(first.byteLength).toBeGreaterThanOrEqual(32);
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);
    expect((await stat(path.join(tmp, 'session-secret'))).mode & 0o777).toBe(0o600);
    expect((await readFile(path.join(tmp, 'session-secret'), 'utf8')).length).toBeGreaterThan(40);
  });

  it('uses SESSION_SECRET when set and demands one in production', async () => {
    expect(
      new TextDecoder().decode(
        await sessionSecret({ secret: 'k'.repeat(32), dataDir: '/nonexistent', production: true }),
      ),
    ).toBe('k'.repeat(32));
    await expect(sessionSecret({ dataDir: '/nonexistent', production: true })).rejects.toThrow(
      /SESSION_SECRET is required/,
    );
  });
});
