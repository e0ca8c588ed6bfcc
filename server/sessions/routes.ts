import { Router, type Request } from 'express';
import { z } from 'zod';
import type { RecentActivity } from '../activity/recent-activity.js';
import { SessionTokens, type GuestSession } from './session-tokens.js';

/** The guest session of a request, when it carries a valid bearer token; never throws. */
export async function optionalSession(req: Request, tokens: SessionTokens): Promise<GuestSession | null> {
  if (!req.get('authorization')) return null;
  try {
    return await tokens.verify(SessionTokens.bearer(req.get('authorization')));
  } catch {
    return null;
  }
}

/** A new guest session takes no input: a body, if sent, must be `{}`; anything else is a client's mistake. */
const NewSessionBodySchema = z
  .strictObject({}, { error: 'a guest session takes no input: send no body, or {}' })
  .optional();

export function sessionRoutes(tokens: SessionTokens, activity: RecentActivity): Router {
  const router = Router();

  // RULES 1.6: POST {backend}/customers/session → sessionToken.
  router.post('/customers/session', async (req, res) => {
    NewSessionBodySchema.parse(req.body);
    const { token, session } = await tokens.issue();
    res
      .status(201)
      .set('Cache-Control', 'no-store')
      .json({ sessionToken: token, expiresAt: session.expiresAt.toISOString() });
  });

  // RULES 1.8: the guest's recent activities, with the bearer guest token.
  router.get('/CustomerActivity/recent-activities', async (req, res) => {
    const session = await tokens.verify(SessionTokens.bearer(req.get('authorization')));
    res.set('Cache-Control', 'private, no-store').json({ data: await activity.list(session.guestId) });
  });

  return router;
}
