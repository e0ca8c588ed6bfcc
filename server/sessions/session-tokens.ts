import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errors, jwtVerify, SignJWT } from 'jose';
import { byteBounded, CACHE_BYTES, roughBytes } from '../cache/byte-bounded.js';
import { AppError } from '../http/errors.js';

/** HS256 needs a key at least as long as its hash: 32 bytes. */
export const MIN_SECRET_BYTES = 32;
const ISSUER = 'storefront';
const AUDIENCE = 'storefront-guest';
const SECRET_FILE = 'session-secret';
const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{1,2048})$/;
const BEARER_PREFIX = 'Bearer ';

export interface GuestSession {
  guestId: string;
  expiresAt: Date;
}

/**
 * Signed, expiring guest tokens (RULES 1.5, 1.7): a JWT whose subject is a random guest id. Any server node holding
 * the secret verifies one without a shared store; a tampered, expired or foreign token is refused.
 */
export class SessionTokens {
  /**
   * Tokens already verified, so a guest's every request does not pay for the HMAC check again (about 0.1 ms
   * with jose here, as much as the rest of a cached answer). A token's signature cannot change, so a verified
   * one stays good until it expires; the expiry is checked on every use.
   */
  private readonly verified = byteBounded<string, GuestSession>(CACHE_BYTES.verifiedTokens, (session) =>
    roughBytes(session),
  );

  /** `newGuestId` makes the id of each new guest; a test passes a seeded one to replay the same guests. */
  constructor(
    private readonly secret: Uint8Array,
    private readonly ttlSeconds: number,
    private readonly newGuestId: () => string = randomUUID,
  ) {
    if (secret.byteLength < MIN_SECRET_BYTES)
      throw new Error(`the session secret must be at least ${MIN_SECRET_BYTES} bytes`);
  }

  async issue(now = new Date()): Promise<{ token: string; session: GuestSession }> {
    const guestId = this.newGuestId();
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + this.ttlSeconds;
    const token = await new SignJWT({ typ: 'guest' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(guestId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.secret);
    return { token, session: { guestId, expiresAt: new Date(exp * 1000) } };
  }

  /** The session of a token, or a 401 saying what is wrong with it. */
  async verify(token: string, now = new Date()): Promise<GuestSession> {
    const known = this.peek(token, now);
    if (known) return known;
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: now,
      });
      if (typeof payload.sub !== 'string' || !/^[0-9a-f-]{36}$/.test(payload.sub) || payload.typ !== 'guest')
        throw new errors.JWTInvalid('not a guest token');
      const session = { guestId: payload.sub, expiresAt: new Date((payload.exp ?? 0) * 1000) };
      this.verified.set(token, session);
      return session;
    } catch (err) {
      if (err instanceof errors.JWTExpired)
        throw new AppError(401, 'session_expired', 'The guest session has expired; request a new one');
      throw new AppError(401, 'invalid_session', 'The guest session token is not valid');
    }
  }

  /** The session of a token verified before and not yet expired, without verifying it again; else undefined. */
  peek(token: string, now = new Date()): GuestSession | undefined {
    const session = this.verified.get(token);
    if (session && session.expiresAt > now) return { ...session };
    return undefined;
  }

  /**
   * The session of an `Authorization: Bearer <token>` header whose token was verified before and has not expired
   * (not a copy: read it, never change it); else undefined. Only verified tokens are kept, so the token needs no
   * other check: read on every replay of a guest's answer, without a copy of the session.
   */
  knownGuest(authorization: string, now = Date.now()): Readonly<GuestSession> | undefined {
    if (!authorization.startsWith(BEARER_PREFIX)) return undefined;
    const session = this.verified.get(authorization.slice(BEARER_PREFIX.length));
    return session && session.expiresAt.getTime() > now ? session : undefined;
  }

  /** The token of an `Authorization: Bearer …` header, or a 401 when there is none. */
  static bearer(header: string | undefined): string {
    const token = SessionTokens.bearerToken(header);
    if (token === undefined)
      throw new AppError(401, 'missing_session', 'Send the guest session token as "Authorization: Bearer <token>"');
    return token;
  }

  /** The token of an `Authorization: Bearer …` header, or undefined when the header is absent or malformed. */
  static bearerToken(header: string | undefined): string | undefined {
    return BEARER.exec(header ?? '')?.[1];
  }
}

/**
 * The signing secret: `SESSION_SECRET` when set; otherwise, outside production, one generated once and kept
 * in the data directory so restarts keep sessions valid. Production without one refuses to start.
 */
export async function sessionSecret(options: {
  secret?: string;
  dataDir: string;
  production: boolean;
}): Promise<Uint8Array> {
  if (options.secret) return new TextEncoder().encode(options.secret);
  if (options.production) throw new Error('SESSION_SECRET is required in production (at least 32 bytes)');
  const file = path.join(options.dataDir, SECRET_FILE);
  try {
    const kept = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64url');
    if (kept.byteLength >= MIN_SECRET_BYTES) return new Uint8Array(kept);
  } catch {
    // none yet
  }
  const fresh = randomBytes(MIN_SECRET_BYTES * 2);
  await mkdir(options.dataDir, { recursive: true });
  await writeFile(file, fresh.toString('base64url'), { mode: 0o600 });
  await chmod(file, 0o600);
  return new Uint8Array(fresh);
}
