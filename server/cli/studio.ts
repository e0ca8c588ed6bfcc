import os from 'node:os';
import { parseCliArgs } from './cli-support.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVERY_BRAND, STUDIO_ROLES, type StudioRole } from '../../shared/schemas/studio.js';
import { parseEnv } from '../config/env.js';
import { AppError } from '../http/errors.js';
import { SegmentAudit } from '../segments/segment-audit.js';
import { openStore } from '../store/open-store.js';
import { recordStoresFor } from '../store/record-collections.js';
import { StudioUsers, type StudioUser } from '../studio/studio-users.js';

export interface StudioCliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const USAGE = `usage:
  npm run studio -- users add --name N --role R --brand B      add a user; prints their key, once
  npm run studio -- users list                                 every user and their roles
  npm run studio -- users change --name N --role R --brand B   give N role R on brand B (R "none": take B away)
  npm run studio -- users key --name N                         a new key for N; the old one stops working
  npm run studio -- users remove --name N                      remove N; their key stops working

  Roles (RULES 18.4), each with the rights of the ones before: ${STUDIO_ROLES.join(', ')}.
  B is a brand id (base, encore…) or "${EVERY_BRAND}" for every brand (and the brand registry).
  With DATABASE_URL the users are kept in that PostgreSQL (every node sees them); otherwise beside the data
  (DATA_DIR/studio), where a running single node reads them.`;

const grantText = (g: StudioUser['grants'][number]) =>
  `${g.role} on ${g.brand === EVERY_BRAND ? 'every brand' : g.brand}`;
/** The brands an entry about a user touches: theirs, or (a user of no brand) every brand's, so it is seen. */
const brandsOf = (u: StudioUser) => (u.grants.length > 0 ? u.grants.map((g) => g.brand) : [EVERY_BRAND]);
const describe = (u: StudioUser) => `${u.name.padEnd(20)} ${u.grants.map(grantText).join(', ') || 'no brands'}`;

/** `npm run studio -- users …`: answers the exit code. */
export async function runStudioCli(argv: string[], env: NodeJS.ProcessEnv, io: StudioCliIo): Promise<number> {
  const parsed = parseCliArgs(
    argv,
    { name: { type: 'string' }, role: { type: 'string' }, brand: { type: 'string' } },
    USAGE,
    io,
  );
  if (!parsed) return 2;
  const { positionals, values } = parsed;
  const [topic, verb] = positionals;
  if (topic !== 'users' || !verb) {
    io.out(USAGE);
    return topic ? 2 : 0;
  }
  const config = parseEnv({ ...env, LOG_LEVEL: env.LOG_LEVEL ?? 'silent' });
  const sql = config.DATABASE_URL
    ? await openStore({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir })
    : null;
  const records = recordStoresFor(sql, config.studioRecordsDir);
  const users = new StudioUsers(records);
  const audit = new SegmentAudit(records);
  const actor = { id: 'cli', name: whoAmI() };
  const need = (value: string | undefined, what: string) => {
    if (!value) throw new AppError(400, 'usage', `users ${verb} needs --${what}`);
    return value;
  };
  const role = (value: string | undefined, allowNone = false): StudioRole | 'none' => {
    const r = need(value, 'role');
    if ((STUDIO_ROLES as readonly string[]).includes(r) || (allowNone && r === 'none')) return r as StudioRole;
    throw new AppError(
      400,
      'usage',
      `--role must be one of ${STUDIO_ROLES.join(', ')}${allowNone ? ' or none' : ''}, not "${r}"`,
    );
  };
  try {
    switch (verb) {
      case 'add': {
        const name = need(values.name, 'name');
        const grant = { brand: need(values.brand, 'brand'), role: role(values.role) as StudioRole };
        const { user, key } = await users.add(name, grant);
        await audit.record(actor, {
          action: 'user-add',
          brands: [grant.brand],
          summary: `added ${user.name} as ${grantText(grant)}`,
        });
        io.out(`added ${describe(user)}`);
        io.out(`key (shown once; send it as X-Studio-Key or type it in the studio): ${key}`);
        return 0;
      }
      case 'list': {
        const all = await users.list();
        if (all.length === 0)
          io.out('no studio users: the studio takes STUDIO_KEY when set, and is open outside production without one');
        for (const u of all) io.out(describe(u));
        return 0;
      }
      case 'change': {
        const name = need(values.name, 'name');
        const grant = { brand: need(values.brand, 'brand'), role: role(values.role, true) };
        const user = await users.grant(name, grant);
        await audit.record(actor, {
          action: 'user-change',
          brands: [grant.brand],
          summary:
            grant.role === 'none'
              ? `took ${grant.brand === EVERY_BRAND ? 'every brand' : grant.brand} away from ${user.name}`
              : `made ${user.name} ${grantText({ brand: grant.brand, role: grant.role })}`,
        });
        io.out(`changed ${describe(user)}`);
        return 0;
      }
      case 'key': {
        const { user, key } = await users.rotate(need(values.name, 'name'));
        await audit.record(actor, {
          action: 'user-change',
          brands: brandsOf(user),
          summary: `gave ${user.name} a new key`,
        });
        io.out(`new key for ${user.name} (shown once; the old one no longer works): ${key}`);
        return 0;
      }
      case 'remove': {
        const user = await users.remove(need(values.name, 'name'));
        await audit.record(actor, {
          action: 'user-remove',
          brands: brandsOf(user),
          summary: `removed ${user.name}`,
        });
        io.out(`removed ${user.name}`);
        return 0;
      }
      default:
        io.err(`unknown command: users ${verb}`);
        io.err(USAGE);
        return 2;
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

function whoAmI(): string {
  try {
    return os.userInfo().username || 'command line';
  } catch {
    return 'command line';
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await runStudioCli(process.argv.slice(2), process.env, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}
