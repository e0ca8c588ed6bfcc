import type { AuditEntry } from '../../shared/schemas/studio.js';
import { EVERY_BRAND } from '../../shared/schemas/studio.js';
import type { RecordLog, RecordStores } from '../store/record-collections.js';
import { REGISTRY_FILE, type SegmentFiles } from './segment-set.js';
import { setChanges, setDiff } from './segment-versions.js';

/** Entries an audit answer lists at most. */
export const AUDIT_LIMIT = 500;

/** Who did something in the studio, on the command line, or the scheduler on someone's behalf. */
export interface Actor {
  id: string;
  name: string;
}

/** The brand a segment file belongs to: its folder, or every brand for the registry. */
export const brandOfFile = (file: string): string => (file === REGISTRY_FILE ? EVERY_BRAND : file.split('/')[0]!);

/** The brands the files of a change belong to, sorted. */
export const brandsOfFiles = (files: Iterable<string>): string[] => [...new Set([...files].map(brandOfFile))].sort();

/** The files whose text differs between two sets (added, changed or removed). */
export function changedFiles(
  before: SegmentFiles | Record<string, string>,
  after: SegmentFiles | Record<string, string>,
): string[] {
  const c = setChanges(before, after);
  return [...c.added, ...c.changed, ...c.removed];
}

/** The brands whose files differ between two sets. */
export const brandsOfChange = (
  before: SegmentFiles | Record<string, string>,
  after: SegmentFiles | Record<string, string>,
) => brandsOfFiles(changedFiles(before, after));

/**
 * RULES 18.5: the studio's audit log: every save, publish, schedule, rollback and preview link, with who did it,
 * when, what and the diff. Append-only; read newest first.
 */
export class SegmentAudit {
  private readonly log: RecordLog<AuditEntry>;

  constructor(stores: RecordStores) {
    this.log = stores.log<AuditEntry>('studio-audit');
  }

  async record(actor: Actor, entry: Omit<AuditEntry, 'at' | 'actor'>): Promise<void> {
    await this.log.append({ at: new Date().toISOString(), actor: { id: actor.id, name: actor.name }, ...entry });
  }

  /**
   * A version published (or, with `restoredFrom`, an older version's files published again), with what it changed
   * against the set live before it: the studio and the command line record it alike.
   */
  published(
    actor: Actor,
    change: {
      before: SegmentFiles;
      after: SegmentFiles;
      version: { version: number; note: string };
      restoredFrom?: number;
    },
  ): Promise<void> {
    const { before, after, version, restoredFrom } = change;
    return this.record(actor, {
      action: restoredFrom === undefined ? 'publish' : 'rollback',
      brands: brandsOfChange(before, after),
      summary:
        restoredFrom === undefined
          ? `published version ${version.version}: ${version.note}`
          : `published version ${version.version}: the files of version ${restoredFrom} (${version.note})`,
      version: version.version,
      diff: setDiff(before, after),
    });
  }

  /** The newest entries, those touching `brands` only when given (an entry on the registry touches every brand). */
  recent(options: { brands?: ReadonlySet<string>; limit?: number } = {}): Promise<AuditEntry[]> {
    const { brands } = options;
    return this.log.recent(
      Math.min(options.limit ?? AUDIT_LIMIT, AUDIT_LIMIT),
      brands ? (e) => e.brands.some((b) => brands.has(b)) : undefined,
    );
  }
}
