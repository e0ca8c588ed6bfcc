import { EVERY_BRAND, STUDIO_ROLES, type StudioGrant, type StudioRole } from '../schemas/studio.js';

/**
 * RULES 18.4: a studio user's role on a brand is the highest of their grant on that brand and their grant on every
 * brand (`*`); each role can do what the roles before it can.
 */
export function roleOn(grants: readonly StudioGrant[], brand: string): StudioRole | null {
  let best: StudioRole | null = null;
  for (const g of grants) {
    if (g.brand !== brand && g.brand !== EVERY_BRAND) continue;
    if (best === null || STUDIO_ROLES.indexOf(g.role) > STUDIO_ROLES.indexOf(best)) best = g.role;
  }
  return best;
}

/** Whether the grants hold at least `role` on `brand` (`*`: on every brand, which the brand registry asks). */
export function holdsRole(grants: readonly StudioGrant[], role: StudioRole, brand: string): boolean {
  const held = roleOn(grants, brand);
  return held !== null && STUDIO_ROLES.indexOf(held) >= STUDIO_ROLES.indexOf(role);
}
