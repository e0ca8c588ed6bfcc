import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STORES } from '../store/test-stores.js';
import type { Sql } from '../store/sql.js';
import { SegmentPublisher } from './segment-publisher.js';
import { SegmentRepository } from './segment-repository.js';
import { readSegmentDir } from './segment-set.js';
import {
  diffOfFiles,
  filesDigest,
  FileVersionStore,
  setDiff,
  SqlVersionStore,
  type SegmentVersionStore,
} from './segment-versions.js';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'segment-versions-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

let dirs = 0;
/** A copy of the shipped segment folder, as one node's live folder. */
async function liveDir(): Promise<string> {
  const dir = path.join(tmp, `live-${++dirs}`);
  await cp(path.resolve('segments'), dir, { recursive: true });
  return dir;
}

/** Each test gets an empty store; a database is opened once for the file (opening one is the slow part). */
const STORES: {
  name: string;
  open: () => Promise<{ store: SegmentVersionStore; close: () => Promise<void> }>;
  closeAll?: () => Promise<void>;
}[] = [
  {
    name: 'files',
    open: async () => ({ store: new FileVersionStore(path.join(tmp, `versions-${++dirs}`)), close: async () => {} }),
  },
  ...TEST_STORES.map(({ name, open }) => {
    let shared: Promise<Sql> | undefined;
    return {
      name,
      open: async () => {
        shared ??= open();
        const sql = await shared;
        await sql.query('TRUNCATE segment_versions');
        return { store: new SqlVersionStore(sql), close: async () => {} };
      },
      closeAll: async () => {
        if (shared) await (await shared).close();
      },
    };
  }),
];
afterAll(() => Promise.all(STORES.map((s) => s.closeAll?.())));

const withTitle = (files: ReadonlyMap<string, string>, title: string) => {
  const next = new Map(files);
  const page = JSON.parse(next.get('base/explore.json')!);
  page.rows.find((r: { id: string }) => r.id === 'local-venues').title = title;
  next.set('base/explore.json', `${JSON.stringify(page, null, 2)}\n`);
  return next;
};
const liveTitle = (repo: SegmentRepository) =>
  repo.page('base', 'explore')!.rows.find((r) => r.id === 'local-venues')!.title;

/** Two nodes on one version store, each with its own live folder loaded from the shipped files. */
async function twoNodes(store: ConstructorParameters<typeof SegmentPublisher>[0]['versions']) {
  const [dirA, dirB] = await Promise.all([liveDir(), liveDir()]);
  const a = new SegmentRepository(dirA);
  const b = new SegmentRepository(dirB);
  await Promise.all([a.load(), b.load()]);
  return {
    dirA,
    dirB,
    a,
    b,
    nodeA: new SegmentPublisher({ versions: store, live: a, liveDir: dirA }),
    nodeB: new SegmentPublisher({ versions: store, live: b, liveDir: dirB }),
  };
}

describe.each(STORES)('published segment versions ($name)', ({ open }) => {
  it('numbers versions in order, once each, even when published at the same moment', async () => {
    const { store, close } = await open();
    try {
      expect(await store.latest()).toBeNull();
      const first = await store.append(
        { files: { 'brands.json': '{}' }, note: 'one', author: 'ana', restoredFrom: null },
        { after: null },
      );
      expect(first).toMatchObject({
        version: 1,
        note: 'one',
        author: 'ana',
        digest: filesDigest({ 'brands.json': '{}' }),
      });
      // Only while the newest is still the one named.
      expect(
        await store.append({ files: {}, note: 'late seed', author: null, restoredFrom: null }, { after: null }),
      ).toBeNull();
      const many = await Promise.all(
        [2, 3, 4, 5].map((i) =>
          store.append({ files: { 'brands.json': String(i) }, note: `n${i}`, author: null, restoredFrom: null }),
        ),
      );
      expect(many.map((v) => v!.version).sort()).toEqual([2, 3, 4, 5]);
      expect(await store.latest()).toBe(5);
      expect((await store.list(3)).map((v) => v.version)).toEqual([5, 4, 3]);
      expect((await store.get(1))!.files).toEqual({ 'brands.json': '{}' });
      expect(await store.get(99)).toBeNull();
      expect(await store.findDigest(filesDigest({ 'brands.json': '{}' }))).toBe(1);
      expect(await store.findDigest('nope')).toBeNull();
    } finally {
      await close();
    }
  });

  it('publishes one of two sets published at the same moment and refuses the other, on one node or two', async () => {
    const { store, close } = await open();
    try {
      const { a, b, nodeA, nodeB } = await twoNodes(store);
      await Promise.all([nodeA.sync(), nodeB.sync()]);
      const results = await Promise.allSettled([
        nodeA.publish(withTitle(a.current.files, 'Venues A'), { note: 'a' }),
        nodeA.publish(withTitle(a.current.files, 'Venues A2'), { note: 'a2' }),
        nodeB.publish(withTitle(b.current.files, 'Venues B'), { note: 'b' }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((r) => r.status === 'rejected'))
        expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 409, code: 'live_changed' });
      expect(await store.latest()).toBe(2);
      // Once caught up, a node publishes on top of the new version.
      await nodeB.sync();
      expect((await nodeB.publish(withTitle(b.current.files, 'Venues B again'), { note: 'b again' })).version).toBe(3);
    } finally {
      await close();
    }
  });

  it('refuses a publish asked while another went live on the same node, however long its own check took', async () => {
    const { store, close } = await open();
    try {
      const { a, nodeA } = await twoNodes(store);
      await nodeA.sync();
      const files = a.current.files;
      // The second publish's look at the store ends only once the first is live here.
      let firstLive: Promise<unknown> = Promise.resolve();
      const sync = nodeA.sync.bind(nodeA);
      let calls = 0;
      nodeA.sync = async () => {
        if (++calls === 2) await firstLive.catch(() => undefined);
        return sync();
      };
      const first = nodeA.publish(withTitle(files, 'Venues first'), { note: 'first' });
      firstLive = first;
      const second = nodeA.publish(withTitle(files, 'Venues second'), { note: 'second' });
      expect((await first).version).toBe(2);
      await expect(second).rejects.toMatchObject({ status: 409, code: 'live_changed' });
      expect(await store.latest()).toBe(2);
    } finally {
      await close();
    }
  });

  it(
    'publishes a whole valid set to every node, refuses a broken or unchanged ' +
      'one, and rolls back as a new version',
    async () => {
      const { store, close } = await open();
      try {
        const { dirA, dirB, a, b, nodeA, nodeB } = await twoNodes(store);
        // Both nodes start on the same files: the first to ask publishes them as version 1, the other finds it.
        await Promise.all([nodeA.sync(), nodeB.sync()]);
        expect(await store.latest()).toBe(1);
        expect([nodeA.live, nodeB.live]).toEqual([1, 1]);
        const original = liveTitle(a);

        const broken = new Map(a.current.files);
        broken.set('base/explore.json', '{ "title": "Explore", "rows": [');
        await expect(nodeA.publish(broken, { note: 'broken' })).rejects.toMatchObject({
          status: 422,
          code: 'draft_invalid',
          details: expect.arrayContaining([expect.objectContaining({ file: 'base/explore.json' })]),
        });
        await expect(nodeA.publish(a.current.files, { note: 'same' })).rejects.toMatchObject({
          status: 409,
          code: 'nothing_to_publish',
        });
        expect(await store.latest()).toBe(1);

        const v2 = await nodeA.publish(withTitle(a.current.files, 'Venues Near You'), {
          note: 'Rename the venues row',
          author: 'ana',
        });
        expect(v2).toMatchObject({ version: 2, author: 'ana', note: 'Rename the venues row', restoredFrom: null });
        // Served on the publishing node at once, on the other at its next poll, and written to both live folders.
        expect(liveTitle(a)).toBe('Venues Near You');
        expect(liveTitle(b)).toBe(original);
        await nodeB.sync();
        expect(liveTitle(b)).toBe('Venues Near You');
        expect(nodeB.live).toBe(2);
        for (const dir of [dirA, dirB])
          expect(await readFile(path.join(dir, 'base/explore.json'), 'utf8')).toContain('Venues Near You');

        const history = await nodeA.history();
        expect(history.live).toBe(2);
        expect(history.versions.map((v) => [v.version, v.changes.changed])).toEqual([
          [2, ['base/explore.json']],
          [1, []],
        ]);
        expect(history.versions[1]!.changes.added).toContain('brands.json');
        const detail = await nodeA.version(2);
        expect(detail.diff).toContain(`-      "title": "${original}"`);
        expect(detail.diff).toContain('+      "title": "Venues Near You"');

        const v3 = await nodeB.restore(1, { author: 'ben' });
        expect(v3).toMatchObject({ version: 3, restoredFrom: 1, note: 'Restored version 1', author: 'ben' });
        expect(liveTitle(b)).toBe(original);
        await nodeA.sync();
        expect(liveTitle(a)).toBe(original);
        await expect(nodeA.restore(1, {})).rejects.toMatchObject({ status: 409, code: 'nothing_to_publish' });
        await expect(nodeA.restore(42, {})).rejects.toMatchObject({ status: 404, code: 'version_not_found' });
        // The live folder is again exactly the files of version 1.
        expect(filesDigest(await readSegmentDir(dirA))).toBe((await store.get(1))!.digest);
      } finally {
        await close();
      }
    },
  );

  it(
    'at start serves the newest version over an old copy, and publishes files ' + 'changed outside the studio',
    async () => {
      const { store, close } = await open();
      try {
        const dir = await liveDir();
        const first = new SegmentRepository(dir);
        await first.load();
        const node = new SegmentPublisher({ versions: store, live: first, liveDir: dir });
        await node.sync();
        await node.publish(withTitle(first.current.files, 'Second'), { note: 'second' });

        // A node whose folder still holds version 1 (an old image): version 2 is served and written over it.
        const stale = await liveDir();
        const staleRepo = new SegmentRepository(stale);
        await staleRepo.load();
        const staleNode = new SegmentPublisher({ versions: store, live: staleRepo, liveDir: stale });
        await staleNode.sync();
        expect([staleNode.live, liveTitle(staleRepo)]).toEqual([2, 'Second']);
        expect(await readFile(path.join(stale, 'base/explore.json'), 'utf8')).toContain('"Second"');

        // Files no version has (edited by hand, or a deploy): published as version 3.
        const edited = await liveDir();
        await writeFile(
          path.join(edited, 'base/explore.json'),
          withTitle(await readSegmentDir(edited), 'By hand').get('base/explore.json')!,
        );
        const editedRepo = new SegmentRepository(edited);
        await editedRepo.load();
        const editedNode = new SegmentPublisher({ versions: store, live: editedRepo, liveDir: edited });
        await editedNode.sync();
        expect(editedNode.live).toBe(3);
        expect((await store.get(3))!.note).toMatch(/as found at start/);
        expect(liveTitle(editedRepo)).toBe('By hand');
      } finally {
        await close();
      }
    },
  );
});

describe('setDiff', () => {
  it('shows added, changed and removed files as a unified diff, and nothing for equal sets', () => {
    const diff = setDiff({ 'a.json': 'x\n', 'gone.json': 'old\n' }, { 'a.json': 'y\n', 'new.json': 'n\n' });
    expect(diff).toContain('--- a/a.json');
    expect(diff).toContain('-x\n+y');
    expect(diff).toContain('--- /dev/null\n+++ b/new.json');
    expect(diff).toContain('--- a/gone.json\n+++ /dev/null');
    expect(setDiff({ 'a.json': 'x' }, { 'a.json': 'x' })).toBe('');
  });
});

describe('diffOfFiles', () => {
  const before = {
    'base/a.json': '{\n  "a": 1\n}\n',
    'encore/b.json': '-- a\n--- b\n+++ c\n@@ -1 +1 @@\nkeep',
    'encore/gone.json': 'old\n',
  };
  const after = {
    'base/a.json': '{\n  "a": 2\n}\n',
    'base/new.json': 'n\n',
    'encore/b.json': 'changed\n',
  };
  const diff = setDiff(before, after);

  it('keeps the sections of the files asked for, whole, and only those', () => {
    const sections = (keep: (f: string) => boolean) =>
      [...diffOfFiles(diff, keep).matchAll(/^\+\+\+ (.*)$/gm)].map((m) => m[1]);
    expect(diffOfFiles(diff, () => true)).toBe(diff);
    expect(diffOfFiles(diff, () => false)).toBe('');
    const base = diffOfFiles(diff, (f) => f.startsWith('base/'));
    expect(base).toBe(
      setDiff(
        { 'base/a.json': before['base/a.json'] },
        { 'base/a.json': after['base/a.json'], 'base/new.json': 'n\n' },
      ),
    );
    // A removed line that reads like a section's header (`--- b`, `+++ c`, `@@`) stays in its file's section.
    const encore = diffOfFiles(diff, (f) => f.startsWith('encore/'));
    expect(encore).toContain('---- b\n-+++ c\n-@@ -1 +1 @@');
    expect(sections((f) => f.startsWith('encore/'))).toEqual(['b/encore/b.json', '/dev/null']);
    expect(encore).not.toContain('base/');
  });

  it('leaves out what does not read as a diff of sets, from where it stops reading as one', () => {
    const broken = diff.replace('@@ -1,3 +1,3 @@', '@@ -1,9 +1,9 @@');
    expect(diffOfFiles(broken, () => true)).toBe('');
    expect(diffOfFiles('not a diff', () => true)).toBe('');
  });
});
