import { Router } from 'express';
import { z } from 'zod';
import { MAX_QUERY_LENGTH } from '../../shared/rules/constants.js';
import type { SessionTokens } from '../sessions/session-tokens.js';
import { queryClock } from './query-clock.js';
import type { SearchService } from './search-service.js';
import { suggest } from './suggest.js';

/**
 * RULES 7.20: the names a script-injected JSONP call gives its callback, and no other: `jsonp_` and a number
 * (the suggester's own, `jsonp_1700000000000`, an optional `_n` counter after it) or jQuery's generated
 * `jQuery<digits>_<digits>`. A name is made fresh for each call, so it is never one the page already has: a
 * plain identifier would let another site call any global function of a page under our origin (`close`,
 * `print`, a function of the app) with our answer, the same-origin method execution attack.
 */
export const CALLBACK_PATTERN = /^(?:jsonp_\d{1,20}(?:_\d{1,10})?|jQuery\d{1,30}_\d{1,20})$/;

const JsonpQuerySchema = z.object({
  token: z.string().min(1, 'token is required').max(2048, 'token is too long'),
  q: z.string().max(MAX_QUERY_LENGTH, `q must be at most ${MAX_QUERY_LENGTH} characters`).default(''),
  callback: z
    .string()
    .regex(
      CALLBACK_PATTERN,
      'callback must be a name the suggester generates: jsonp_ and digits (jsonp_1700000000000), ' +
        'or jQuery<digits>_<digits>',
    ),
});

/** JSON that is also safe inside a script: no `</script>`, no line separators JavaScript would choke on. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The alternate suggester of RULES 7.20 (flag `isABSearch`): a script-injected JSONP call carrying the guest's
 * signed token, the query and a callback name. The token is verified and the callback name checked against
 * the names the suggester generates (`CALLBACK_PATTERN`) before anything is written.
 */
export function jsonpRoutes(search: SearchService, tokens: SessionTokens): Router {
  const router = Router();
  router.get('/suggest/jsonp', async (req, res) => {
    const { token, q, callback } = JsonpQuerySchema.parse(req.query);
    await tokens.verify(token);
    const body = await suggest(search.engine, q, false, queryClock());
    res
      .type('text/javascript; charset=utf-8')
      .set('Cache-Control', 'private, no-store')
      .set('X-Content-Type-Options', 'nosniff')
      .send(`/**/${callback}(${scriptSafeJson(body)});`);
  });
  return router;
}
