import { rm } from 'node:fs/promises';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUDIO_KEY_HEADER, STUDIO_ROLES, type StudioRole } from '../../shared/schemas/studio.js';
import { parseEnv } from '../config/env.js';
import { studioCatalog, studioNode } from '../test/studio-node.js';

/**
 * RULES 18.4: every studio route, for every role, on the user's own brand and on another: allowed from the route's
 * role up on their own brand, 403 below it and on every other brand. One user per role holds it on `encore` only.
 */

const ADMIN_KEY = 'the-single-admin-key-of-this-shop';
const OWN = 'encore';
const OTHER = 'base';

let catalog: Awaited<ReturnType<typeof studioCatalog>>;
let node: Awaited<ReturnType<typeof studioNode>>;
const keys = new Map<StudioRole, string>();
let edits = 0;

beforeAll(async () => {
  catalog = await studioCatalog();
  node = await studioNode(catalog, { env: { STUDIO_KEY: ADMIN_KEY } });
  for (const role of STUDIO_ROLES)
    keys.set(role, (await node.studio.users.add(`${role} of encore`, { brand: OWN, role })).key);
}, 120_000);
afterAll(() => rm(catalog.tmp, { recursive: true, force: true }));

const as = (key: string) => ({
  get: (url: string) => request(node.app).get(url).set(STUDIO_KEY_HEADER, key),
  post: (url: string, body: object = {}) => request(node.app).post(url).set(STUDIO_KEY_HEADER, key).send(body),
  put: (url: string, body: object) => request(node.app).put(url).set(STUDIO_KEY_HEADER, key).send(body),
  delete: (url: string) => request(node.app).delete(url).set(STUDIO_KEY_HEADER, key),
});
const admin = as(ADMIN_KEY);

/** A page file of `brand` changed, as a draft (by the admin): each call a new title, so there is always a change. */
async function draftChange(brand: string): Promise<void> {
  const file = `${brand}/explore.json`;
  const state = (await admin.get('/api/studio/state').expect(200)).body as { files: { path: string; text: string }[] };
  const text = state.files.find((f) => f.path === file)!.text;
  const changed = text.replace(/"title": "[^"]*"/, `"title": "Explore ${++edits}"`);
  expect(changed).not.toBe(text);
  await admin.put(`/api/studio/files/${file}`, { text: changed }).expect(200);
}

/** Two versions published that change only `brand`'s files; answers the first, which a rollback brings back. */
async function versionOf(brand: string): Promise<number> {
  await draftChange(brand);
  const first = (await admin.post('/api/studio/publish', { note: 'one', brand }).expect(201)).body.version.version;
  await draftChange(brand);
  await admin.post('/api/studio/publish', { note: 'two', brand }).expect(201);
  return first as number;
}

const soon = () => new Date(Date.now() + 3_600_000).toISOString();

interface Case {
  route: string;
  role: StudioRole;
  /** Another brand's record is, to a user without that brand, not there: 404, not a 403 naming its brand. */
  hiddenElsewhere?: boolean;
  setup?: (brand: string) => Promise<unknown>;
  call: (key: string, brand: string, made: unknown) => request.Test;
}

const CASES: Case[] = [
  {
    route: 'GET /preview',
    role: 'viewer',
    call: (k, b) => as(k).get(`/api/studio/preview?brand=${b}&page=home&zip=60601`),
  },
  { route: 'GET /experiments', role: 'viewer', call: (k, b) => as(k).get(`/api/studio/experiments?brand=${b}`) },
  { route: 'GET /versions', role: 'viewer', call: (k, b) => as(k).get(`/api/studio/versions?brand=${b}`) },
  {
    route: 'GET /versions/:n',
    role: 'viewer',
    setup: versionOf,
    call: (k, _b, n) => as(k).get(`/api/studio/versions/${n as number}`),
  },
  { route: 'GET /schedules', role: 'viewer', call: (k, b) => as(k).get(`/api/studio/schedules?brand=${b}`) },
  { route: 'GET /rows', role: 'viewer', call: (k, b) => as(k).get(`/api/studio/rows?brand=${b}&page=home`) },
  { route: 'GET /audit', role: 'viewer', call: (k, b) => as(k).get(`/api/studio/audit?brand=${b}`) },
  {
    route: 'POST /check',
    role: 'viewer',
    call: (k, b) => as(k).post('/api/studio/check', { path: `${b}/explore.json`, text: '{}' }),
  },
  {
    route: 'PUT /files',
    role: 'editor',
    call: (k, b) =>
      as(k).put(`/api/studio/files/${b}/theater.json`, { text: '{ "extends": "base", "operations": [] }' }),
  },
  {
    route: 'DELETE /files',
    role: 'editor',
    setup: (b) =>
      admin.put(`/api/studio/files/${b}/concerts.json`, { text: '{ "extends": "base", "operations": [] }' }),
    call: (k, b) => as(k).delete(`/api/studio/files/${b}/concerts.json`),
  },
  {
    route: 'POST /discard',
    role: 'editor',
    setup: draftChange,
    call: (k, b) => as(k).post('/api/studio/discard', { brand: b }),
  },
  {
    route: 'POST /publish',
    role: 'publisher',
    setup: draftChange,
    call: (k, b) => as(k).post('/api/studio/publish', { note: 'a change', brand: b }),
  },
  {
    route: 'POST /schedules',
    role: 'publisher',
    setup: draftChange,
    call: (k, b) => as(k).post('/api/studio/schedules', { note: 'later', brand: b, at: soon() }),
  },
  {
    route: 'DELETE /schedules/:id',
    role: 'publisher',
    hiddenElsewhere: true,
    setup: async (b) => {
      await draftChange(b);
      return (await admin.post('/api/studio/schedules', { note: 'later', brand: b, at: soon() }).expect(201)).body
        .schedule.id as string;
    },
    call: (k, _b, id) => as(k).delete(`/api/studio/schedules/${id as string}`),
  },
  {
    route: 'POST /versions/:n/restore',
    role: 'publisher',
    setup: versionOf,
    call: (k, _b, n) => as(k).post(`/api/studio/versions/${n as number}/restore`),
  },
  {
    route: 'GET /preview-links',
    role: 'viewer',
    call: (k, b) => as(k).get(`/api/studio/preview-links?brand=${b}`),
  },
  {
    route: 'POST /preview-links',
    role: 'editor',
    call: (k, b) => as(k).post('/api/studio/preview-links', { brand: b, page: 'home', place: { zip: '60601' } }),
  },
  {
    route: 'DELETE /preview-links/:id',
    role: 'editor',
    hiddenElsewhere: true,
    setup: async (b) =>
      (await admin.post('/api/studio/preview-links', { brand: b, page: 'home' }).expect(201)).body.id as string,
    call: (k, _b, id) => as(k).delete(`/api/studio/preview-links/${id as string}`),
  },
  // The brand registry is every brand's: only an admin of every brand changes it.
  {
    route: 'PUT /files/brands.json',
    role: 'admin',
    setup: async () =>
      ((await admin.get('/api/studio/state').expect(200)).body as { files: { path: string; text: string }[] }).files
        .find((f) => f.path === 'brands.json')!
        .text.trimEnd() + `\n${' '.repeat(++edits % 3)}`,
    call: (k, _b, text) => as(k).put('/api/studio/files/brands.json', { text: text as string }),
  },
];

const rank = (role: StudioRole) => STUDIO_ROLES.indexOf(role);

describe('the studio refuses what a role may not do, and another brand, with a 403 naming why', () => {
  for (const c of CASES) {
    it(`${c.route}: from ${c.role} up on its own brand, never on another`, async () => {
      for (const role of STUDIO_ROLES) {
        for (const brand of [OWN, OTHER]) {
          const made = c.setup ? await c.setup(brand) : undefined;
          const res = await c.call(keys.get(role)!, brand, made);
          const allowed = c.route !== 'PUT /files/brands.json' && brand === OWN && rank(role) >= rank(c.role);
          const what = `${role} on ${brand}: ${res.status} ${JSON.stringify(res.body?.error ?? '')}`;
          if (allowed) expect(res.status, what).toBeLessThan(300);
          else if (c.hiddenElsewhere && brand !== OWN) expect(res.status, what).toBe(404);
          else {
            expect(res.status, what).toBe(403);
            expect(res.body.error.code, what).toBe('not_allowed');
          }
        }
      }
      // The single admin may do all of it, on every brand.
      const made = c.setup ? await c.setup(OTHER) : undefined;
      const res = await c.call(ADMIN_KEY, OTHER, made);
      expect(res.status, `admin: ${JSON.stringify(res.body?.error ?? '')}`).toBeLessThan(300);
    });
  }

  it('shows each user only their brands: state, diff, history and the audit log', async () => {
    await draftChange(OTHER);
    await draftChange(OWN);
    const state = (await as(keys.get('viewer')!).get('/api/studio/state').expect(200)).body;
    expect(state.me).toMatchObject({ name: 'viewer of encore', grants: [{ brand: OWN, role: 'viewer' }] });
    expect(state.brands.map((b: { id: string }) => b.id)).toEqual([OWN]);
    expect(state.files.map((f: { path: string }) => f.path).sort()).toEqual(['brands.json', 'encore/explore.json']);
    const diff = (await as(keys.get('viewer')!).get('/api/studio/diff').expect(200)).body.diff as string;
    expect(diff).toContain('encore/explore.json');
    expect(diff).not.toMatch(/^[-+]{3} [ab]\/base\//m);
    const history = (await as(keys.get('viewer')!).get('/api/studio/versions').expect(200)).body;
    for (const v of history.versions)
      expect(
        [...v.changes.added, ...v.changes.changed, ...v.changes.removed].every((f: string) => !f.startsWith('base/')),
      ).toBe(true);
    const audit = (await as(keys.get('viewer')!).get('/api/studio/audit').expect(200)).body.entries;
    expect(audit.length).toBeGreaterThan(0);
    expect(audit.every((e: { brands: string[] }) => e.brands.includes(OWN) || e.brands.includes('*'))).toBe(true);
    // The admin's audit log names who did what, with the diff.
    const all = (await admin.get('/api/studio/audit').expect(200)).body.entries;
    expect(all.find((e: { action: string }) => e.action === 'publish')).toMatchObject({
      actor: { name: expect.any(String) },
      brands: expect.any(Array),
      diff: expect.stringContaining('@@'),
    });
    // A guest's events are every brand's data: an admin of one brand does not read them.
    await as(keys.get('admin')!).get('/api/studio/events?guest=someone1').expect(403);
    await admin.get('/api/studio/events?guest=someone1').expect(200);
  });

  it('says why a schedule of several brands failed to a user of one only in general words', async () => {
    const clock = { now: Date.now() };
    const n = await studioNode(catalog, { env: { STUDIO_KEY: ADMIN_KEY }, now: () => clock.now });
    const viewer = (await n.studio.users.add('viewer of encore', { brand: OWN, role: 'viewer' })).key;
    const call = (key: string) => ({
      get: (url: string) => request(n.app).get(url).set(STUDIO_KEY_HEADER, key),
      post: (url: string, body: object) => request(n.app).post(url).set(STUDIO_KEY_HEADER, key).send(body),
      put: (url: string, body: object) => request(n.app).put(url).set(STUDIO_KEY_HEADER, key).send(body),
    });
    const files = (await call(ADMIN_KEY).get('/api/studio/state').expect(200)).body.files as {
      path: string;
      text: string;
    }[];
    const retitle = (file: string, title: string) =>
      call(ADMIN_KEY)
        .put(`/api/studio/files/${file}`, {
          text: files.find((f) => f.path === file)!.text.replace(/"title": "[^"]*"/, `"title": "${title}"`),
        })
        .expect(200);
    await retitle('base/explore.json', 'Scheduled Base');
    await retitle('encore/explore.json', 'Scheduled Encore');
    const at = new Date(clock.now + 3_600_000).toISOString();
    await call(ADMIN_KEY).post('/api/studio/schedules', { note: 'both brands', at }).expect(201);
    // Base's page is published by hand meanwhile: the schedule would undo it, so it fails when due.
    await retitle('base/explore.json', 'By Hand');
    await call(ADMIN_KEY).post('/api/studio/publish', { note: 'by hand', brand: 'base' }).expect(201);
    clock.now += 2 * 3_600_000;
    await n.studio.schedule.runDue();
    const [seenByAdmin] = (await call(ADMIN_KEY).get('/api/studio/schedules').expect(200)).body.schedules;
    expect(seenByAdmin).toMatchObject({ status: 'failed', reason: expect.stringContaining('base/explore.json') });
    const [seenByViewer] = (await call(viewer).get('/api/studio/schedules').expect(200)).body.schedules;
    expect(seenByViewer.status).toBe('failed');
    expect(JSON.stringify(seenByViewer)).not.toContain('base/');
    expect(seenByViewer.reason).toMatch(/brands you do not see/);
  });

  it('publishes as who is signed in: the history names the user, not a typed name', async () => {
    await draftChange(OWN);
    const published = (
      await as(keys.get('publisher')!).post('/api/studio/publish', { note: 'by the publisher', brand: OWN }).expect(201)
    ).body.version;
    expect(published.author).toBe('publisher of encore');
    await as(keys.get('publisher')!).post('/api/studio/publish', { note: 'x', author: 'Someone Else' }).expect(400);
  });

  it('refuses a wrong key with 401 and holds back a client that keeps guessing', async () => {
    const guess = (key: string) => request(node.app).get('/api/studio/state').set(STUDIO_KEY_HEADER, key);
    // RULES 18.4: 20 refused keys a minute per client, then 429s; no refused key came from this client before.
    const limit = parseEnv({ NODE_ENV: 'test' }).RATE_LIMIT_KEY_FAILURES_PER_MINUTE;
    expect(limit).toBe(20);
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) statuses.push((await guess(`sk_wrong-${i}`)).status);
    expect(statuses).toEqual([...Array<number>(limit).fill(401), 429]);
    // Once held back, even a good key waits: guessing does not go on alongside a real user's requests.
    expect((await guess(ADMIN_KEY)).status).toBe(429);
  });
});
