import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { AppError } from '../http/errors.js';
import type { ScannerService } from './scanner-service.js';
import { MAX_BARCODE_LENGTH } from './domain/ticket-barcode.js';

/** The header a venue scanner sends its key in. */
export const SCANNER_KEY_HEADER = 'X-Scanner-Key';

export const ScanRequestSchema = z.object({
  barcode: z
    .string({ error: 'barcode must be the text read from the ticket' })
    .trim()
    .min(1, 'barcode is empty')
    .max(MAX_BARCODE_LENGTH, `barcode must be at most ${MAX_BARCODE_LENGTH} characters`),
});

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `POST /tickets/scan {"barcode"}` for venue scanners holding `TICKET_SCANNER_KEY`: `valid` the first time a
 * ticket is scanned, then `already_used`; `unknown` for a forged, tampered or void ticket. A wrong or missing
 * key is 401; a body that is no barcode is 400.
 */
export function scannerRoutes(scanner: ScannerService, scannerKey: string, limiter: RequestHandler): Router {
  const router = Router();
  const expected = digest(scannerKey);
  router.post('/tickets/scan', limiter, async (req, res) => {
    const given = req.get(SCANNER_KEY_HEADER);
    if (!given || !timingSafeEqual(digest(given), expected))
      throw new AppError(401, 'scanner_key_required', `Send the scanner key in ${SCANNER_KEY_HEADER}`);
    const { barcode } = ScanRequestSchema.parse(req.body ?? {});
    res.set('Cache-Control', 'no-store').json(await scanner.scan(barcode));
  });
  return router;
}
