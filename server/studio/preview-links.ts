import { createHmac, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { RecordCollection, RecordStores } from '../store/record-collections.js';
import type { Actor } from '../segments/segment-audit.js';
import { PREVIEW_LINK_ID, type PreviewPlace } from '../../shared/schemas/studio.js';

const ISSUER = 'storefront';
const AUDIENCE = 'studio-preview-link';
const DAY_MS = 86_400_000;
/** Links that ended (expired or revoked) this long ago are dropped when a new one is made; the audit log keeps them. */
export const PREVIEW_LINK_KEPT_DAYS = 30;
/** A token is three base64url parts; anything longer than this is none of ours. */
const TOKEN = /^[A-Za-z0-9_-]{1,200}\.[A-Za-z0-9_-]{1,200}\.[A-Za-z0-9_-]{1,100}$/;

/** RULES 18.3: a preview link as kept: what it shows, who made it, until when, and whether it was revoked. */
export interface PreviewLink {
  id: string;
  brand: string;
  page: string;
  place: PreviewPlace | null;
  variation: number | null;
  /** The site as of this time; null: the drafts as they are when the link is opened. */
  at: string | null;
  createdBy: Actor;
  createdAt: string;
  expiresAt: string;
  revokedAt?: string;
  revokedBy?: Actor;
}

export type PreviewLinkInput = Pick<PreviewLink, 'brand' | 'page' | 'place' | 'variation' | 'at'>;

/**
 * The key preview links are signed with: derived from the session secret for this purpose alone, so it is the
 * same on every node and a guest's session token can never pass for a link (nor a link for a session).
 */
export function previewLinkKey(secret: Uint8Array | string): Uint8Array {
  return new Uint8Array(createHmac('sha256', secret).update('studio-preview-links').digest());
}

/**
 * RULES 18.3: preview links, kept with the studio's records (shared by every node with PostgreSQL). A link's token
 * is a JWT (HS256) naming the link and its expiry; it opens the link only while the record says it is neither
 * revoked nor expired. Anything else (a token changed by one character, expired, revoked, or of a link nobody
 * made) opens nothing, and which of these it was is not told.
 */
export class PreviewLinks {
  private readonly links: RecordCollection<PreviewLink>;

  constructor(
    private readonly options: {
      records: RecordStores;
      key: Uint8Array;
      /** The clock links are made and checked by (tests move it). */
      now?: () => number;
    },
  ) {
    if (options.key.byteLength < 32) throw new RangeError('the preview link key must be at least 32 bytes');
    this.links = options.records.collection<PreviewLink>('preview-links');
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** A new link lasting `days`; answers it with its token. Links that ended long ago are dropped meanwhile. */
  async make(input: PreviewLinkInput, maker: Actor, days: number): Promise<{ link: PreviewLink; token: string }> {
    const now = this.now();
    // Whole seconds, as the token's expiry is: the record and the token say the same time.
    const expires = Math.floor((now + days * DAY_MS) / 1000) * 1000;
    const link: PreviewLink = {
      id: randomBytes(12).toString('base64url'),
      ...input,
      createdBy: { id: maker.id, name: maker.name },
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(expires).toISOString(),
    };
    const ended = (l: PreviewLink) =>
      Math.min(Date.parse(l.expiresAt), l.revokedAt ? Date.parse(l.revokedAt) : Infinity) <
      now - PREVIEW_LINK_KEPT_DAYS * DAY_MS;
    await this.links.update((all) => ({ put: [link], remove: all.filter(ended).map((l) => l.id), result: null }));
    return { link, token: await this.sign(link.id, new Date(expires)) };
  }

  /** The token of link `id` expiring at `expires`: the same token for the same two, on every node. */
  sign(id: string, expires: Date): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setJti(id)
      .setExpirationTime(Math.floor(expires.getTime() / 1000))
      .sign(this.options.key);
  }

  /** The token of a kept link. */
  token(link: Pick<PreviewLink, 'id' | 'expiresAt'>): Promise<string> {
    return this.sign(link.id, new Date(link.expiresAt));
  }

  /** The link a token opens now, or null: a bad signature, an expired or revoked link, or none by that id. */
  async open(token: string): Promise<PreviewLink | null> {
    if (!TOKEN.test(token)) return null;
    let id: string;
    let exp: number;
    try {
      const { payload } = await jwtVerify(token, this.options.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['jti', 'exp'],
        currentDate: new Date(this.now()),
      });
      id = String(payload.jti);
      exp = Number(payload.exp);
    } catch {
      return null;
    }
    if (!PREVIEW_LINK_ID.test(id)) return null;
    const link = await this.links.get(id);
    if (!link || link.revokedAt !== undefined) return null;
    const expires = Date.parse(link.expiresAt);
    // The token made for this link, no other: its expiry is the link's.
    if (exp * 1000 !== expires || expires <= this.now()) return null;
    return link;
  }

  get(id: string): Promise<PreviewLink | null> {
    return this.links.get(id);
  }

  /** Every kept link, newest first. */
  async list(): Promise<PreviewLink[]> {
    return (await this.links.all()).sort(
      (a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || a.id.localeCompare(b.id),
    );
  }

  /** Revokes a link (once: revoking it again changes nothing); null when there is no such link. */
  revoke(id: string, by: Actor): Promise<{ link: PreviewLink; revoked: boolean } | null> {
    return this.links.update<{ link: PreviewLink; revoked: boolean } | null>((all) => {
      const link = all.find((l) => l.id === id);
      if (!link) return { result: null };
      if (link.revokedAt !== undefined) return { result: { link, revoked: false } };
      const revoked: PreviewLink = {
        ...link,
        revokedAt: new Date(this.now()).toISOString(),
        revokedBy: { id: by.id, name: by.name },
      };
      return { put: [revoked], result: { link: revoked, revoked: true } };
    });
  }

  /** Whether a link is open now (neither revoked nor expired). */
  isOpen(link: PreviewLink): boolean {
    return link.revokedAt === undefined && Date.parse(link.expiresAt) > this.now();
  }
}
