import path from 'node:path';
import { parseCliArgs } from './cli-support.js';
import { fileURLToPath } from 'node:url';
import { ScannerKeys, scopeText, type ScannerKey, type ScannerScope } from '../commerce/scanner-keys.js';
import { parseEnv } from '../config/env.js';
import { AppError } from '../http/errors.js';
import { openStore } from '../store/open-store.js';
import { recordStoresFor } from '../store/record-collections.js';

export interface ScannersCliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const USAGE = `usage:
  npm run scanners -- add --venue ID [--label TEXT]          a key for every event at venue ID; prints the key, once
  npm run scanners -- add --events ID,ID… [--label TEXT]     a key for those events only
  npm run scanners -- list                                   every key: its id, label and what it admits to
  npm run scanners -- remove ID                              remove a key; it admits nothing from then on

  A venue's scanner sends its key as X-Scanner-Key to POST /api/tickets/scan, naming the event it admits to
  (RULES 19.6). With DATABASE_URL the keys are kept in that PostgreSQL (every node sees them); otherwise beside the
  data (DATA_DIR/scanners), where a running single node reads them.`;

const describe = (k: ScannerKey) => `${k.id}  ${k.label.padEnd(24)} ${scopeText(k.scope)}`;

/** A whole positive number as typed, or a 400 naming the option. */
function idOf(text: string, option: string): number {
  if (!/^\d{1,15}$/.test(text.trim()) || Number(text) < 1)
    throw new AppError(400, 'usage', `${option} takes event or venue ids, whole numbers from 1, not "${text}"`);
  return Number(text);
}

/** `npm run scanners -- …`: answers the exit code. */
export async function runScannersCli(argv: string[], env: NodeJS.ProcessEnv, io: ScannersCliIo): Promise<number> {
  const parsed = parseCliArgs(
    argv,
    { venue: { type: 'string' }, events: { type: 'string' }, label: { type: 'string' } },
    USAGE,
    io,
  );
  if (!parsed) return 2;
  const { positionals, values } = parsed;
  const [verb, ...rest] = positionals;
  if (!verb) {
    io.out(USAGE);
    return 0;
  }
  if (!['add', 'list', 'remove'].includes(verb)) {
    io.err(`unknown command: ${verb}`);
    io.err(USAGE);
    return 2;
  }
  const config = parseEnv({ ...env, LOG_LEVEL: env.LOG_LEVEL ?? 'silent' });
  const sql = config.DATABASE_URL
    ? await openStore({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir })
    : null;
  const keys = new ScannerKeys(recordStoresFor(sql, config.scannerRecordsDir));
  try {
    switch (verb) {
      case 'add': {
        if ((values.venue === undefined) === (values.events === undefined))
          throw new AppError(400, 'usage', 'add needs one of --venue ID or --events ID,ID…');
        const scope: ScannerScope =
          values.venue !== undefined
            ? { venueId: idOf(values.venue, '--venue') }
            : { eventIds: values.events!.split(',').map((id) => idOf(id, '--events')) };
        const { record, key } = await keys.add(scope, values.label);
        io.out(`added ${describe(record)}`);
        io.out(`key (shown once; the scanner sends it as X-Scanner-Key): ${key}`);
        return 0;
      }
      case 'list': {
        const all = await keys.list();
        if (all.length === 0) io.out('no scanner keys: every scan is refused until one is added');
        for (const k of all) io.out(describe(k));
        return 0;
      }
      default: {
        const [id, extra] = rest;
        if (!id || extra !== undefined) throw new AppError(400, 'usage', 'remove takes one key id (see list)');
        const removed = await keys.remove(id);
        io.out(`removed ${describe(removed)}`);
        return 0;
      }
    }
  } catch (err) {
    if (err instanceof AppError) {
      io.err(err.message);
      return 1;
    }
    throw err;
  } finally {
    await sql?.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await runScannersCli(process.argv.slice(2), process.env, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}
