import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUDIO_ROLES } from '../../shared/schemas/studio.js';
import { parseEnv } from '../config/env.js';
import { SegmentAudit } from '../segments/segment-audit.js';
import { recordStoresFor } from '../store/record-collections.js';
import { StudioUsers } from '../studio/studio-users.js';
import { runStudioCli } from './studio.js';

let tmp: string;
let runs = 0;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'studio-cli-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

/** An empty DATA_DIR, the command line on it, and the stores it writes (read as a node would). */
function studio() {
  const { DATABASE_URL: _db, ...rest } = process.env;
  const processEnv = { ...rest, DATA_DIR: path.join(tmp, `data-${++runs}`) };
  const records = recordStoresFor(null, parseEnv({ ...processEnv, LOG_LEVEL: 'silent' }).studioRecordsDir);
  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runStudioCli(argv, processEnv, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  /** Adds a user and answers their key. */
  const add = async (name: string, role: string, brand: string) => {
    const added = await cli('users', 'add', '--name', name, '--role', role, '--brand', brand);
    expect(added.code).toBe(0);
    return /^key \(shown once[^)]*\): (sk_\S+)$/m.exec(added.out)![1]!;
  };
  return {
    cli,
    add,
    users: new StudioUsers(records),
    audit: () => new SegmentAudit(records).recent(),
  };
}

/** Who the command line names in the audit log: the login name, or "command line" when the system has none. */
function loginName(): string {
  try {
    return os.userInfo().username || 'command line';
  } catch {
    return 'command line';
  }
}

/** The user a key belongs to, as a studio request finds them. */
const byKey = async (users: StudioUsers, key: string) => (await users.identify(key)).user;
const USAGE_LINE = 'npm run studio -- users add --name N --role R --brand B';

describe('npm run studio -- users add', () => {
  it('prints the user and a key once; the key is the user’s', async () => {
    const { cli, users, audit } = await studio();
    const added = await cli('users', 'add', '--name', 'Ana Lopez', '--role', 'editor', '--brand', 'encore');
    expect(added.code).toBe(0);
    expect(added.err).toBe('');
    const [first, second, ...rest] = added.out.split('\n');
    expect(first).toBe(`added ${'Ana Lopez'.padEnd(20)} editor on encore`);
    expect(second).toMatch(
      /^key \(shown once; send it as X-Studio-Key or type it in the studio\): sk_[A-Za-z0-9_-]{43}$/,
    );
    expect(rest).toEqual([]);
    const key = second!.split(': ')[1]!;
    expect(await byKey(users, key)).toMatchObject({ name: 'Ana Lopez', grants: [{ brand: 'encore', role: 'editor' }] });
    expect(await byKey(users, `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect((await cli('users', 'list')).out).not.toContain(key);

    expect(await audit()).toEqual([
      expect.objectContaining({
        action: 'user-add',
        actor: { id: 'cli', name: loginName() },
        brands: ['encore'],
        summary: 'added Ana Lopez as editor on encore',
      }),
    ]);
  });

  it('refuses a name taken in any case, a role or brand it does not know, and missing options', async () => {
    const { cli, add, audit } = await studio();
    await add('Ana', 'admin', '*');
    const taken = await cli('users', 'add', '--name', 'ANA', '--role', 'viewer', '--brand', 'base');
    expect(taken).toEqual({ code: 1, out: '', err: 'There is already a studio user named "ANA"' });

    const role = await cli('users', 'add', '--name', 'Ben', '--role', 'owner', '--brand', 'base');
    expect(role).toEqual({ code: 1, out: '', err: `--role must be one of ${STUDIO_ROLES.join(', ')}, not "owner"` });
    for (const brand of ['Encore', 'en core', '-encore', '']) {
      const bad = await cli('users', 'add', '--name', 'Ben', '--role', 'viewer', `--brand=${brand}`);
      expect(bad.code).toBe(1);
      expect(bad.err).toMatch(brand ? /^brand must be a brand id \(such as "encore"\)/ : /^users add needs --brand$/);
    }
    expect((await cli('users', 'add', '--name', '!Ben', '--role', 'viewer', '--brand', 'base')).err).toMatch(
      /^A user name is 1 to 80 letters/,
    );
    for (const [missing, args] of [
      ['name', ['--role', 'viewer', '--brand', 'base']],
      ['role', ['--name', 'Ben', '--brand', 'base']],
      ['brand', ['--name', 'Ben', '--role', 'viewer']],
    ] as const) {
      expect(await cli('users', 'add', ...args)).toEqual({ code: 1, out: '', err: `users add needs --${missing}` });
    }
    expect((await cli('users', 'list')).out.split('\n')).toEqual([`${'Ana'.padEnd(20)} admin on every brand`]);
    expect((await audit()).map((e) => e.action)).toEqual(['user-add']);
  });
});

describe('npm run studio -- users list | change | key | remove', () => {
  it('lists users, changes and takes away their brands, gives new keys and removes them', async () => {
    const { cli, add, users, audit } = await studio();
    expect(await cli('users', 'list')).toEqual({
      code: 0,
      out: 'no studio users: the studio takes STUDIO_KEY when set, and is open outside production without one',
      err: '',
    });
    const ana = await add('ana', 'editor', 'base');
    await add('Ben', 'viewer', '*');
    expect((await cli('users', 'list')).out.split('\n')).toEqual([
      `${'ana'.padEnd(20)} editor on base`,
      `${'Ben'.padEnd(20)} viewer on every brand`,
    ]);

    // A new brand, then a new role on a brand held, then a brand taken away.
    expect(await cli('users', 'change', '--name', 'ANA', '--role', 'publisher', '--brand', 'encore')).toEqual({
      code: 0,
      out: `changed ${'ana'.padEnd(20)} editor on base, publisher on encore`,
      err: '',
    });
    expect((await cli('users', 'change', '--name', 'ana', '--role', 'admin', '--brand', 'base')).out).toBe(
      `changed ${'ana'.padEnd(20)} publisher on encore, admin on base`,
    );
    expect((await cli('users', 'change', '--name', 'ana', '--role', 'none', '--brand', 'encore')).out).toBe(
      `changed ${'ana'.padEnd(20)} admin on base`,
    );
    expect((await byKey(users, ana))?.grants).toEqual([{ brand: 'base', role: 'admin' }]);
    expect((await cli('users', 'change', '--name', 'ana', '--role', 'none', '--brand', 'base')).out).toBe(
      `changed ${'ana'.padEnd(20)} no brands`,
    );
    const badRole = await cli('users', 'change', '--name', 'ana', '--role', 'owner', '--brand', 'base');
    expect(badRole).toEqual({
      code: 1,
      out: '',
      err: `--role must be one of ${STUDIO_ROLES.join(', ')} or none, not "owner"`,
    });
    const nobody = await cli('users', 'change', '--name', 'Cleo', '--role', 'viewer', '--brand', 'base');
    expect(nobody).toEqual({ code: 1, out: '', err: 'There is no studio user named "Cleo"' });
    expect((await cli('users', 'change', '--name', 'ana', '--brand', 'base')).err).toBe('users change needs --role');

    // A new key: the old one stops working.
    const rotated = await cli('users', 'key', '--name', 'ana');
    expect(rotated.code).toBe(0);
    const key = /^new key for ana \(shown once; the old one no longer works\): (sk_[A-Za-z0-9_-]{43})$/.exec(
      rotated.out,
    )![1]!;
    expect(await byKey(users, ana)).toBeNull();
    expect(await byKey(users, key)).toMatchObject({ name: 'ana' });
    expect(await cli('users', 'key')).toEqual({ code: 1, out: '', err: 'users key needs --name' });
    expect((await cli('users', 'key', '--name', 'Cleo')).err).toBe('There is no studio user named "Cleo"');

    // Removed: the key stops working; removing again is refused.
    expect(await cli('users', 'remove', '--name', 'Ana')).toEqual({ code: 0, out: 'removed ana', err: '' });
    expect(await byKey(users, key)).toBeNull();
    expect(await cli('users', 'remove', '--name', 'ana')).toEqual({
      code: 1,
      out: '',
      err: 'There is no studio user named "ana"',
    });
    expect((await cli('users', 'list')).out).toBe(`${'Ben'.padEnd(20)} viewer on every brand`);

    const actor = { id: 'cli', name: loginName() };
    expect(await audit()).toEqual(
      [
        ['user-add', ['base'], 'added ana as editor on base'],
        ['user-add', ['*'], 'added Ben as viewer on every brand'],
        ['user-change', ['encore'], 'made ana publisher on encore'],
        ['user-change', ['base'], 'made ana admin on base'],
        ['user-change', ['encore'], 'took encore away from ana'],
        ['user-change', ['base'], 'took base away from ana'],
        // A user of no brand: the entries are every brand's, so every studio user sees them.
        ['user-change', ['*'], 'gave ana a new key'],
        ['user-remove', ['*'], 'removed ana'],
      ]
        .reverse()
        .map(([action, brands, summary]) => expect.objectContaining({ action, actor, brands, summary })),
    );
  });
});

describe('npm run studio', () => {
  it('prints its usage: exit 0 with no arguments, 2 for what it does not know', async () => {
    const { cli, audit } = await studio();
    const none = await cli();
    expect(none.code).toBe(0);
    expect(none.out).toContain(USAGE_LINE);
    for (const args of [['users'], ['user', 'list'], ['list']]) {
      const out = await cli(...args);
      expect(out.code).toBe(2);
      expect(out.out).toContain(USAGE_LINE);
    }
    const verb = await cli('users', 'rename', '--name', 'ana');
    expect(verb.code).toBe(2);
    expect(verb.err.split('\n')[0]).toBe('unknown command: users rename');
    expect(verb.err).toContain(USAGE_LINE);
    const option = await cli('users', 'add', '--nme', 'ana');
    expect(option.code).toBe(2);
    expect(option.err).toMatch(/^Unknown option '--nme'/);
    expect(option.err).toContain(USAGE_LINE);
    expect(await audit()).toEqual([]);
  });
});
