import { randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../http/errors.js';
import { secretDigest } from '../http/security.js';
import type { RecordCollection, RecordStores } from '../store/record-collections.js';

/** Most events one key may name (a festival's days, a season's home games). */
export const MAX_SCOPE_EVENTS = 200;
export const MAX_LABEL_LENGTH = 80;
const KEY_PREFIX = 'scn_';

const positiveId = (what: string) =>
  z
    .number({ error: `${what} must be a positive whole number` })
    .int(`${what} must be a positive whole number`)
    .positive(`${what} must be a positive whole number`);

/** RULES 19.6: what a scanner key admits to, a venue's events or a list of events. */
export const ScannerScopeSchema = z.union(
  [
    z.strictObject({ venueId: positiveId('venueId') }),
    z.strictObject({
      eventIds: z
        .array(positiveId('each of eventIds'))
        .min(1, 'eventIds must name at least one event')
        .max(MAX_SCOPE_EVENTS, `eventIds may name at most ${MAX_SCOPE_EVENTS} events`)
        .transform((ids) => [...new Set(ids)].sort((a, b) => a - b)),
    }),
  ],
  { error: 'scope must be { "venueId": ID } or { "eventIds": [ID, …] }' },
);
export type ScannerScope = z.infer<typeof ScannerScopeSchema>;

export const ScannerLabelSchema = z
  .string({ error: 'label must be text' })
  .trim()
  .min(1, 'label is empty')
  .max(MAX_LABEL_LENGTH, `label must be at most ${MAX_LABEL_LENGTH} characters`)
  .regex(/^[^\p{Cc}]*$/u, 'label must not hold control characters');

/** A scanner key as kept: the SHA-256 of the key (the key itself is shown once, when made) and what it admits to. */
export interface ScannerKey {
  id: string;
  /** Which gate or device holds it ("North gate"). */
  label: string;
  scope: ScannerScope;
  keyHash: string;
  createdAt: string;
}

/** A key as listed: everything but its digest. */
export type ScannerKeyView = Omit<ScannerKey, 'keyHash'>;

export const keyView = ({ keyHash: _, ...view }: ScannerKey): ScannerKeyView => view;

/** Whether a key's scope covers an event: one of its events, or any event at its venue. */
export function scopeCovers(scope: ScannerScope, event: { event_id: number; venue_id: number }): boolean {
  return 'venueId' in scope ? scope.venueId === event.venue_id : scope.eventIds.includes(event.event_id);
}

/** "venue 42" or "events 7, 9": a scope as a line of the command line's list says it. */
export function scopeText(scope: ScannerScope): string {
  return 'venueId' in scope
    ? `venue ${scope.venueId}`
    : `event${scope.eventIds.length === 1 ? '' : 's'} ${scope.eventIds.join(', ')}`;
}

/** RULES 19.6: the venue scanners' keys, each naming what it admits to, kept with the other records. */
export class ScannerKeys {
  private readonly keys: RecordCollection<ScannerKey>;

  constructor(stores: RecordStores) {
    this.keys = stores.collection<ScannerKey>('scanner-keys');
  }

  /** Every key, oldest first. */
  async list(): Promise<ScannerKey[]> {
    return (await this.keys.all()).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  /**
   * The key `key` is, or null. Every kept digest is compared in constant time (RULES 18.4), so a guess learns
   * nothing from how long the answer takes.
   */
  async identify(key: string): Promise<ScannerKey | null> {
    const digest = secretDigest(key);
    let found: ScannerKey | null = null;
    for (const k of await this.keys.all()) if (timingSafeEqual(Buffer.from(k.keyHash, 'hex'), digest)) found = k;
    return found;
  }

  /** Adds a key for a scope; answers it and the key itself, which is not kept and cannot be shown again. */
  async add(scope: unknown, label?: unknown): Promise<{ record: ScannerKey; key: string }> {
    const checkedScope = parse(ScannerScopeSchema, scope, 'invalid_scope');
    const checkedLabel =
      label === undefined ? scopeText(checkedScope) : parse(ScannerLabelSchema, label, 'invalid_label');
    const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const record: ScannerKey = {
      id: randomBytes(8).toString('hex'),
      label: checkedLabel,
      scope: checkedScope,
      keyHash: secretDigest(key).toString('hex'),
      createdAt: new Date().toISOString(),
    };
    await this.keys.update(() => ({ put: [record], result: null }));
    return { record, key };
  }

  /** Removes a key: it admits nothing from then on. */
  async remove(id: string): Promise<ScannerKey> {
    return this.keys.update((all) => {
      const record = all.find((k) => k.id === id);
      if (!record) throw new AppError(404, 'scanner_key_not_found', `There is no scanner key with id "${id}"`);
      return { remove: [record.id], result: record };
    });
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown, code: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new AppError(400, code, parsed.error.issues.map((i) => i.message).join('; '));
}
