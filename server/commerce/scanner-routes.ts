import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { AppError } from '../http/errors.js';
import type { ScannerKeys } from './scanner-keys.js';
import type { ScannerService } from './scanner-service.js';
import { MAX_BARCODE_LENGTH } from './domain/ticket-barcode.js';

/** The header a venue scanner sends its key in. */
export const SCANNER_KEY_HEADER = 'X-Scanner-Key';

const EVENT_ID = 'event must be the id of the event this gate admits to (a positive whole number)';

export const ScanRequestSchema = z.object({
  barcode: z
    .string({ error: 'barcode must be the text read from the ticket' })
    .trim()
    .min(1, 'barcode is empty')
    .max(MAX_BARCODE_LENGTH, `barcode must be at most ${MAX_BARCODE_LENGTH} characters`),
  event: z.number({ error: EVENT_ID }).int(EVENT_ID).positive(EVENT_ID).max(Number.MAX_SAFE_INTEGER, EVENT_ID),
});

/**
 * RULES 19.6: `POST /tickets/scan {"barcode", "event"}` for venue scanners holding a scanner key (`X-Scanner-Key`),
 * which names the venue or the events it admits to. A missing key, or one that is no scanner key (none made yet:
 * every key), is 401; a body without a barcode and an event id is 400; an event the key does not cover is 403
 * `event_not_allowed`, one the catalog does not have 404 `event_not_found`. Otherwise the answer (`ScanAnswer`) says
 * whether the ticket is admitted, and why not.
 */
export function scannerRoutes(scanner: ScannerService, keys: ScannerKeys, limiters: RequestHandler[]): Router {
  const router = Router();
  // RULES 18.4: limited before the key is checked, so refused keys count too.
  router.post('/tickets/scan', ...limiters, async (req, res) => {
    const given = req.get(SCANNER_KEY_HEADER);
    const key = given ? await keys.identify(given) : null;
    // One answer whether a key was sent or not: a refusal says nothing of the keys there are.
    if (!key)
      throw new AppError(
        401,
        'scanner_key_required',
        `Send one of this storefront's scanner keys in ${SCANNER_KEY_HEADER}: none was sent, or this one is not known`,
      );
    const { barcode, event } = ScanRequestSchema.parse(req.body ?? {});
    const admitting = await scanner.eventFor(key.scope, event);
    res.set('Cache-Control', 'no-store').json(await scanner.scan(barcode, admitting));
  });
  return router;
}
