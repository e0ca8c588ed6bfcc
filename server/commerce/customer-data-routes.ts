import { Router, type RequestHandler, type Response } from 'express';
import {
  DATA_FILE_NAME,
  OPT_OUT_COOKIE,
  OPT_OUT_COOKIE_MAX_AGE_SECONDS,
  PrivacyChoiceBodySchema,
} from '../../shared/schemas/privacy.js';
import { SessionTokens } from '../sessions/session-tokens.js';
import type { CustomerData } from './customer-data.js';

/** A guest's own answers: never kept by a browser or a proxy. */
const PRIVATE = 'private, no-store';

/**
 * RULES 21: a guest's own data, each route with the guest's bearer token (401 without): the download
 * (`GET /api/customers/me/data`), the erasure (`DELETE /api/customers/me`) and the choice about selling and sharing
 * (`GET`/`POST /api/customers/me/privacy`). `limit` counts every one of them against one per-client limit.
 */
export function customerDataRoutes(data: CustomerData, tokens: SessionTokens, limit: RequestHandler): Router {
  const router = Router();
  const guest = async (authorization: string | undefined) =>
    (await tokens.verify(SessionTokens.bearer(authorization))).guestId;
  router.use('/customers/me', limit);

  // RULES 21.1: a file the browser saves.
  router.get('/customers/me/data', async (req, res) => {
    const guestId = await guest(req.get('authorization'));
    const body = await data.download(guestId);
    res
      .set({ 'Cache-Control': PRIVATE, 'Content-Disposition': `attachment; filename="${DATA_FILE_NAME}"` })
      .type('json')
      .send(JSON.stringify(body, null, 2));
  });

  // RULES 21.3: 204 each time; what is erased stays erased.
  router.delete('/customers/me', async (req, res) => {
    const guestId = await guest(req.get('authorization'));
    const erased = await data.erase(guestId);
    req.log.info({ erased: { ...erased, guest: guestId } }, "a guest's personal data was erased");
    res.status(204).set('Cache-Control', PRIVATE).end();
  });

  router.get('/customers/me/privacy', async (req, res) => {
    const guestId = await guest(req.get('authorization'));
    const choice = await data.choice(guestId, req.headers);
    // RULES 21.4: a stored choice outlasts its cookie: reading it tells the browser again (a cleared or expired
    // cookie comes back). With none stored, the browser's cookie is left as it is.
    if (choice.chosenAt !== null) optOutCookie(res, choice.doNotSellOrShare, req.secure);
    res.set('Cache-Control', PRIVATE).json(choice);
  });

  // RULES 21.4: stored per guest, and told to the browser (and the event intake) by a cookie.
  router.post('/customers/me/privacy', async (req, res) => {
    const guestId = await guest(req.get('authorization'));
    const { doNotSellOrShare } = PrivacyChoiceBodySchema.parse(req.body ?? {});
    const choice = await data.choose(guestId, doNotSellOrShare, req.headers);
    optOutCookie(res, doNotSellOrShare, req.secure);
    res.set('Cache-Control', PRIVATE).json(choice);
  });

  return router;
}

/** Sets (or removes) the opt-out cookie, readable by the page's script, as the client's own cookies are. */
function optOutCookie(res: Response, optedOut: boolean, secure: boolean): void {
  const options = { path: '/', sameSite: 'lax', secure, httpOnly: false } as const;
  if (optedOut) res.cookie(OPT_OUT_COOKIE, '1', { ...options, maxAge: OPT_OUT_COOKIE_MAX_AGE_SECONDS * 1000 });
  else res.clearCookie(OPT_OUT_COOKIE, options);
}
