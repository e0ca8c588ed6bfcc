import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureOutput } from '../test/capture-output.js';
import { main } from './segments.js';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'segments-versions-cli-'));
  await cp(path.resolve('segments'), path.join(tmp, 'segments'), { recursive: true });
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

const cli = async (...args: string[]) => {
  const { DATABASE_URL: _db, ...env } = process.env;
  const { code, stdout, stderr } = await captureOutput(() =>
    main(args, { ...env, SEGMENTS_DIR: path.join(tmp, 'segments'), DATA_DIR: path.join(tmp, 'data') }),
  );
  return { status: code, stdout, stderr };
};

describe('npm run segments -- publish | history | diff | rollback', () => {
  it('publishes the drafts as versions, shows them and their diffs, and rolls back as a new version', async () => {
    const noDrafts = await cli('publish', '--note', 'first');
    expect(noDrafts.status).toBe(1);
    expect(noDrafts.stderr).toMatch(/no drafts in .*segment-drafts/);
    await cp(path.join(tmp, 'segments'), path.join(tmp, 'segment-drafts'), { recursive: true });
    const draft = path.join(tmp, 'segment-drafts', 'base', 'explore.json');
    await writeFile(draft, (await readFile(draft, 'utf8')).replace('"Local Venues"', '"Venues Here"'));

    expect((await cli('publish')).stderr).toMatch(/publish needs --note/);
    const diff = await cli('diff');
    expect(diff.stdout).toContain('-      "title": "Local Venues",\n+      "title": "Venues Here",');
    const published = await cli('publish', '--note', 'Rename the venues row', '--author', 'ana');
    expect(published.stdout).toMatch(/^published version 2 /);
    expect(await readFile(path.join(tmp, 'segments', 'base', 'explore.json'), 'utf8')).toContain('"Venues Here"');
    expect((await cli('diff')).stdout).toBe('no differences\n');
    expect((await cli('diff', '2')).stdout).toContain('+      "title": "Venues Here",');

    const rollback = await cli('rollback', '1', '--note', 'Back to the old title', '--author', 'ben');
    expect(rollback.stdout).toMatch(/^published version 3: the files of version 1 \(Back to the old title\)/);
    expect(await readFile(path.join(tmp, 'segments', 'base', 'explore.json'), 'utf8')).toContain('"Local Venues"');
    const history = (await cli('history')).stdout.split('\n');
    expect(history[0]).toMatch(/^\* +3 .* ben +Back to the old title \(restores 1\)$/);
    expect(history.some((l) => /^ +2 .* ana +Rename the venues row$/.test(l))).toBe(true);
    expect(history.some((l) => /^ +1 .* The files in segments\/ at first start$/.test(l))).toBe(true);
    expect((await cli('diff', '1', '3')).stdout).toBe('no differences\n');

    // A broken draft is refused with its problems; nothing is published.
    await writeFile(draft, (await readFile(draft, 'utf8')).replace('"kind": "venues"', '"kind": "venus"'));
    const refused = await cli('publish', '--note', 'broken');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      'base/explore.json:42:15: "venus" is not a row kind. Allowed kinds: ' +
        'performers, events, venues, categories, promos. Did you mean "venues"?',
    );
    expect((await cli('history')).stdout.split('\n')[0]).toMatch(/^\* +3 /);
    expect((await cli('rollback', 'x')).stderr).toMatch(/rollback N must be a version number/);
    expect((await cli('rollback', '9')).stderr).toMatch(/There is no version 9/);
  });
});
