import { randomBytes, timingSafeEqual } from 'node:crypto';
import { secretDigest } from '../http/security.js';
import { AppError } from '../http/errors.js';
import type { RecordCollection, RecordStores } from '../store/record-collections.js';
import { EVERY_BRAND, STUDIO_ROLES, type StudioGrant, type StudioRole } from '../../shared/schemas/studio.js';
import { holdsRole } from '../../shared/rules/studio-roles.js';
import type { Actor } from '../segments/segment-audit.js';

/** A studio user: a name, the SHA-256 of their key (the key itself is shown once, when made) and their grants. */
export interface StudioUser {
  id: string;
  name: string;
  keyHash: string;
  grants: StudioGrant[];
  createdAt: string;
}

/** Someone using the studio: a user, the single admin of `STUDIO_KEY`, or anyone outside production with no keys. */
export interface StudioActor extends Actor {
  grants: StudioGrant[];
}

export const USER_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._@'-]{0,79}$/u;
const KEY_PREFIX = 'sk_';

/** What is kept of a key: its SHA-256 (a key is 256 random bits, so no slower hash is needed against guessing). */
const keyDigest = secretDigest;

export const holds = (actor: Pick<StudioActor, 'grants'>, role: StudioRole, brand: string) =>
  holdsRole(actor.grants, role, brand);

/** Refuses with 403 unless the actor holds `role` on every one of `brands`. */
export function requireRole(actor: StudioActor, role: StudioRole, brands: string | Iterable<string>): void {
  for (const brand of typeof brands === 'string' ? [brands] : brands) {
    if (holds(actor, role, brand)) continue;
    const where = brand === EVERY_BRAND ? 'every brand (the brand registry is every brand’s)' : `brand "${brand}"`;
    throw new AppError(403, 'not_allowed', `${actor.name} may not do this on ${where}: it needs the ${role} role`);
  }
}

/** The brands an actor may see (every brand of `all` for a grant on every brand). */
export function visibleBrands(actor: StudioActor, all: readonly string[]): Set<string> {
  return new Set([...all, EVERY_BRAND].filter((b) => holds(actor, 'viewer', b)));
}

/** The single admin of `STUDIO_KEY`, and the studio outside production when nobody has a key. */
export const KEY_ADMIN: StudioActor = {
  id: 'studio-key',
  name: 'admin',
  grants: [{ brand: EVERY_BRAND, role: 'admin' }],
};
export const LOCAL_ADMIN: StudioActor = { id: 'local', name: 'local', grants: [{ brand: EVERY_BRAND, role: 'admin' }] };

/** RULES 18.4: the studio's users, kept with the published versions' records. */
export class StudioUsers {
  private readonly users: RecordCollection<StudioUser>;

  constructor(stores: RecordStores) {
    this.users = stores.collection<StudioUser>('studio-users');
  }

  list(): Promise<StudioUser[]> {
    return this.users.all().then((all) => all.sort((a, b) => a.name.localeCompare(b.name)));
  }

  /**
   * In one read: whether there are users at all, and whose key `key` is (none given: nobody's). Every user's digest
   * is compared in constant time, so a guess learns nothing.
   */
  async identify(key: string | undefined): Promise<{ anyUsers: boolean; user: StudioUser | null }> {
    const all = await this.users.all();
    if (key === undefined) return { anyUsers: all.length > 0, user: null };
    const digest = keyDigest(key);
    let user: StudioUser | null = null;
    for (const u of all) if (timingSafeEqual(Buffer.from(u.keyHash, 'hex'), digest)) user = u;
    return { anyUsers: all.length > 0, user };
  }

  /** The user of an id, or null. */
  get(id: string): Promise<StudioUser | null> {
    return this.users.get(id);
  }

  async any(): Promise<boolean> {
    return (await this.users.all()).length > 0;
  }

  /** Adds a user with one grant; answers the user and their key, which is not kept and cannot be shown again. */
  async add(name: string, grant: StudioGrant): Promise<{ user: StudioUser; key: string }> {
    checkName(name);
    checkGrant(grant);
    const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const user: StudioUser = {
      id: randomBytes(8).toString('hex'),
      name,
      keyHash: keyDigest(key).toString('hex'),
      grants: [grant],
      createdAt: new Date().toISOString(),
    };
    await this.users.update((all) => {
      if (all.some((u) => u.name.toLowerCase() === name.toLowerCase()))
        throw new AppError(409, 'user_exists', `There is already a studio user named "${name}"`);
      return { put: [user], result: null };
    });
    return { user, key };
  }

  /** Gives a user a role on a brand (replacing the role they had there); `none` takes the brand away. */
  async grant(name: string, grant: { brand: string; role: StudioRole | 'none' }): Promise<StudioUser> {
    return this.change(name, (user) => {
      const others = user.grants.filter((g) => g.brand !== grant.brand);
      if (grant.role === 'none') return { ...user, grants: others };
      checkGrant(grant as StudioGrant);
      return { ...user, grants: [...others, { brand: grant.brand, role: grant.role }] };
    });
  }

  /** A new key for a user; the old one stops working at once. */
  async rotate(name: string): Promise<{ user: StudioUser; key: string }> {
    const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const user = await this.change(name, (u) => ({ ...u, keyHash: keyDigest(key).toString('hex') }));
    return { user, key };
  }

  async remove(name: string): Promise<StudioUser> {
    return this.users.update((all) => {
      const user = all.find((u) => u.name.toLowerCase() === name.toLowerCase());
      if (!user) throw new AppError(404, 'user_not_found', `There is no studio user named "${name}"`);
      return { remove: [user.id], result: user };
    });
  }

  private change(name: string, fn: (user: StudioUser) => StudioUser): Promise<StudioUser> {
    return this.users.update((all) => {
      const user = all.find((u) => u.name.toLowerCase() === name.toLowerCase());
      if (!user) throw new AppError(404, 'user_not_found', `There is no studio user named "${name}"`);
      const changed = fn(user);
      return { put: [changed], result: changed };
    });
  }
}

export const userActor = (user: StudioUser): StudioActor => ({ id: user.id, name: user.name, grants: user.grants });

function checkName(name: string) {
  if (!USER_NAME.test(name))
    throw new AppError(
      400,
      'invalid_name',
      "A user name is 1 to 80 letters, digits, spaces or . _ @ ' -, starting with a letter or digit",
    );
}

function checkGrant(grant: StudioGrant) {
  if (!(STUDIO_ROLES as readonly string[]).includes(grant.role))
    throw new AppError(400, 'invalid_role', `role must be one of ${STUDIO_ROLES.join(', ')}, not "${grant.role}"`);
  if (grant.brand !== EVERY_BRAND && !/^[a-z0-9][a-z0-9-]{0,63}$/.test(grant.brand))
    throw new AppError(400, 'invalid_brand', `brand must be a brand id (such as "encore") or "*" for every brand`);
}
