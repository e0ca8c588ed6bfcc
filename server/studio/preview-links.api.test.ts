import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LayoutResponseSchema } from '../../shared/schemas/layout.js';
import { PreviewLinkMadeSchema, PreviewLinksSchema, SharedPreviewSchema } from '../../shared/schemas/studio.js';
import { generateCatalog } from '../catalog/generate/generate-catalog.js';
import { loadCatalog } from '../catalog/load-catalog.js';
import { CachedEngine } from '../search/cached-engine.js';
import { EmbeddedEngine } from '../search/embedded/embedded-engine.js';
import { SearchService } from '../search/search-service.js';
import { studioNode, type StudioNodeOptions } from '../test/studio-node.js';
import { previewLinkKey } from './preview-links.js';

const DAY_MS = 86_400_000;
let tmp: string;
let search: SearchService;
/** A built client of two stand-in pages: the storefront's shell and the preview link's page. */
let clientDir: string;
const SHELL = '<!doctype html><title>storefront shell</title>';
const LINK_PAGE = '<!doctype html><title>shared preview page</title>';

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'preview-links-'));
  await generateCatalog({
    events: 1500,
    seed: 11,
    start: new Date().toISOString().slice(0, 10),
    outDir: path.join(tmp, 'catalog'),
  });
  search = new SearchService();
  search.set(new CachedEngine(await EmbeddedEngine.build((await loadCatalog(path.join(tmp, 'catalog'))).collections)));
  clientDir = path.join(tmp, 'client');
  await mkdir(clientDir, { recursive: true });
  await writeFile(path.join(clientDir, 'index.html'), SHELL);
  await writeFile(path.join(clientDir, 'preview.html'), LINK_PAGE);
}, 120_000);
afterAll(() => rm(tmp, { recursive: true, force: true }));

const node = (options: StudioNodeOptions = {}) => studioNode({ tmp, search }, { clientDir, ...options });

/** A node with users: a viewer and an editor of `base`, an editor of `encore`, and a publisher of every brand. */
async function nodeWithUsers(options: StudioNodeOptions = {}) {
  const made = await node(options);
  const key = async (name: string, brand: string, role: 'viewer' | 'editor' | 'publisher') =>
    (await made.studio.users.add(name, { brand, role })).key;
  return {
    ...made,
    keys: {
      viewer: await key('Vera', 'base', 'viewer'),
      editor: await key('Ed', 'base', 'editor'),
      encore: await key('Enzo', 'encore', 'editor'),
      publisher: await key('Pia', '*', 'publisher'),
    },
  };
}

const venuesTitle = (layout: unknown) =>
  LayoutResponseSchema.parse(layout).rows.find((r) => r.id === 'local-venues')?.title;
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

/** The token with the character at `index` of part `part` (0 header, 1 payload, 2 signature) changed. */
function tampered(token: string, part: number, index: number): string {
  const parts = token.split('.');
  const s = parts[part]!;
  parts[part] = s.slice(0, index) + (s[index] === 'A' ? 'B' : 'A') + s.slice(index + 1);
  return parts.join('.');
}

/** Both answers of a link: its page and its preview, asked without any studio key. */
async function open(app: Parameters<typeof request>[0], token: string) {
  return { page: await request(app).get(`/preview/${token}`), api: await request(app).get(`/api/preview/${token}`) };
}

/** The one answer every link that opens nothing gets, whatever was wrong with it. */
async function expectNoSuchLink(app: Parameters<typeof request>[0], token: string) {
  const { page, api } = await open(app, token);
  expect(page.status).toBe(404);
  expect(page.text).toContain('This preview link is not valid');
  expect(page.text).not.toContain('storefront shell');
  expect(api.status).toBe(404);
  expect(api.body).toEqual({
    error: {
      code: 'preview_link_not_found',
      message: 'This preview link is not valid: it may have expired or been revoked',
    },
  });
  for (const res of [page, api]) {
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['x-robots-tag']).toBe('noindex');
  }
}

describe('preview links (RULES 18.3)', () => {
  it('are made by editors of the brand only, recorded, listed, and open without a key on the drafts', async () => {
    const { app, keys } = await nodeWithUsers();
    const body = { brand: 'base', page: 'home', place: { zip: '60601' } };
    await request(app).post('/api/studio/preview-links').send(body).expect(401);
    const asViewer = await request(app).post('/api/studio/preview-links').set('X-Studio-Key', keys.viewer).send(body);
    expect(asViewer.status).toBe(403);
    expect(asViewer.body.error.message).toMatch(/needs the editor role/);
    await request(app).post('/api/studio/preview-links').set('X-Studio-Key', keys.encore).send(body).expect(403);
    const made = PreviewLinkMadeSchema.parse(
      (await request(app).post('/api/studio/preview-links').set('X-Studio-Key', keys.editor).send(body).expect(201))
        .body,
    );
    expect(made.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/preview\/[\w-]+\.[\w-]+\.[\w-]+$/);
    const token = tokenOf(made.url);

    // Opened without a key: the page, and the preview it draws, as the studio draws it for the same place.
    const { page, api } = await open(app, token);
    expect(page.status).toBe(200);
    expect(page.text).toBe(LINK_PAGE);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(api.status).toBe(200);
    for (const res of [page, api]) {
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['x-robots-tag']).toBe('noindex');
    }
    const shared = SharedPreviewSchema.parse(api.body);
    expect(shared.layout).toMatchObject({ page: 'explore', brand: { id: 'base' }, location: { city: 'Chicago' } });
    expect(shared.link).toMatchObject({ brand: { id: 'base' }, page: 'home', variation: null, at: null });
    expect(shared.link.expires).toBe(made.expires);
    const studioPreview = (
      await request(app)
        .get('/api/studio/preview?brand=base&page=home&zip=60601')
        .set('X-Studio-Key', keys.editor)
        .expect(200)
    ).body;
    expect(shared.rows.map((r) => r.id)).toEqual(studioPreview.rows.map((r: { id: string }) => r.id));

    // The drafts as they are when it is opened: a draft saved after the link was made shows in it.
    const explore = (await request(app).get('/api/studio/state').set('X-Studio-Key', keys.editor)).body.files.find(
      (f: { path: string }) => f.path === 'base/explore.json',
    ).text as string;
    await request(app)
      .put('/api/studio/files/base/explore.json')
      .set('X-Studio-Key', keys.editor)
      .send({ text: explore.replace('"Local Venues"', '"Venues Tonight"') })
      .expect(200);
    expect(venuesTitle((await request(app).get(`/api/preview/${token}`).expect(200)).body.layout)).toBe(
      'Venues Tonight',
    );

    // Recorded, and listed: with its address for editors of the brand, without for its viewers, not at all for
    // another brand's editor.
    const audit = (await request(app).get('/api/studio/audit').set('X-Studio-Key', keys.editor).expect(200)).body;
    expect(audit.entries).toContainEqual(
      expect.objectContaining({
        action: 'preview-link',
        actor: expect.objectContaining({ name: 'Ed' }),
        brands: ['base'],
        summary: expect.stringContaining(`made preview link ${made.id}: the home page of base at ZIP 60601`),
      }),
    );
    const listed = (key: string, query = '') =>
      request(app).get(`/api/studio/preview-links${query}`).set('X-Studio-Key', key);
    const forEditor = PreviewLinksSchema.parse((await listed(keys.editor).expect(200)).body).links;
    expect(forEditor).toEqual([
      {
        id: made.id,
        brand: 'base',
        page: 'home',
        place: { zip: '60601' },
        variation: null,
        at: null,
        createdBy: { id: expect.any(String), name: 'Ed' },
        createdAt: expect.any(String),
        expires: made.expires,
        revoked: null,
        // The same address (each supertest request is made on a port of its own).
        url: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/preview/${token}$`)),
      },
    ]);
    // Seven days unless told otherwise.
    expect(Date.parse(forEditor[0]!.expires) - Date.parse(forEditor[0]!.createdAt)).toBeGreaterThan(7 * DAY_MS - 1000);
    expect(Date.parse(forEditor[0]!.expires) - Date.parse(forEditor[0]!.createdAt)).toBeLessThanOrEqual(7 * DAY_MS);
    const forViewer = PreviewLinksSchema.parse((await listed(keys.viewer, '?brand=base').expect(200)).body).links;
    expect(forViewer.map((l) => [l.id, l.url])).toEqual([[made.id, undefined]]);
    expect(PreviewLinksSchema.parse((await listed(keys.encore).expect(200)).body).links).toEqual([]);
    await listed(keys.encore, '?brand=base').expect(403);

    // Read only: nothing else answers to the token, and it is no studio key.
    for (const method of ['post', 'put', 'delete'] as const)
      await request(app)[method](`/api/preview/${token}`).send({}).expect(404);
    // Nor does a refusal name the address that holds it, in its answer (whose message its log line carries too).
    for (const address of [`/api/preview/${token}/x`, `/api/preview/x/${token}`]) {
      const refused = await request(app).get(address).expect(404);
      expect(refused.body.error.message).toBe(
        'No API route for GET /api/preview/…: a preview link is read with GET /api/preview/<token>',
      );
    }
    await request(app).get('/api/studio/state').set('X-Studio-Key', token).expect(401);
  });

  it('refuse what could never open with a 4xx naming the problem', async () => {
    const { app, keys } = await nodeWithUsers();
    const make = (body: unknown) =>
      request(app)
        .post('/api/studio/preview-links')
        .set('X-Studio-Key', keys.editor)
        .send(body as object);
    const refused = async (body: unknown, status: number, message: RegExp) => {
      const res = await make(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.message, JSON.stringify(body)).toMatch(message);
    };
    await refused({ page: 'home' }, 400, /brand/);
    await refused({ brand: 'base', page: 'home', days: 31 }, 400, /at most 30 days/);
    await refused({ brand: 'base', page: 'home', days: 0 }, 400, /1 to 30/);
    await refused({ brand: 'base', page: 'home', place: { zip: 'abc' } }, 400, /5-digit/);
    await refused({ brand: 'base', page: 'home', place: { zip: '60601', city: 'Chicago' } }, 400, /place is one of/);
    await refused({ brand: 'base', page: 'home', place: { lat: 41.9 } }, 400, /place is one of/);
    await refused({ brand: 'base', page: 'home', at: '2030-01-01T09:00:00' }, 400, /with its zone/);
    await refused({ brand: 'base', page: 'home', token: 'x' }, 400, /has a field not known here: "token"/);
    await refused({ brand: 'base', page: 'home', place: { zip: '00000' } }, 404, /don't know ZIP code 00000/);
    await refused({ brand: 'base', page: 'home', place: { city: 'Atlantis' } }, 404, /No US city/);
    await refused({ brand: 'base', page: 'home', variation: 7 }, 400, /0 to 1/);
    await refused({ brand: 'base', page: 'no-such-page' }, 404, /./);
    // Made with coordinates, a city, a variation and a lifetime of its own, all kept as asked.
    const made = (await make({ brand: 'base', page: 'home', place: { city: 'Chicago, IL' }, variation: 1, days: 2 }))
      .body;
    const shared = SharedPreviewSchema.parse(
      (
        await request(app)
          .get(`/api/preview/${tokenOf(made.url)}`)
          .expect(200)
      ).body,
    );
    expect(shared.variant).toBe('promos');
    expect(shared.layout.location.city).toBe('Chicago');
    const byCoordinates = (await make({ brand: 'base', page: 'nfl', place: { lat: 41.88, lng: -87.63 } }).expect(201))
      .body;
    expect(
      SharedPreviewSchema.parse(
        (
          await request(app)
            .get(`/api/preview/${tokenOf(byCoordinates.url)}`)
            .expect(200)
        ).body,
      ).layout,
    ).toMatchObject({ page: 'category', category: 'nfl' });
  });

  it('show the site as of their time, once the versions scheduled by then are live', async () => {
    const { app, keys } = await nodeWithUsers();
    const as = (key: string) => ({ 'X-Studio-Key': key });
    const explore = (await request(app).get('/api/studio/state').set(as(keys.editor))).body.files.find(
      (f: { path: string }) => f.path === 'base/explore.json',
    ).text as string;
    const save = (title: string) =>
      request(app)
        .put('/api/studio/files/base/explore.json')
        .set(as(keys.editor))
        .send({ text: explore.replace('"Local Venues"', `"${title}"`) })
        .expect(200);
    const hour = 3_600_000;
    const inHours = (h: number) => new Date(Date.now() + h * hour).toISOString();
    await save('Venues Near You');
    await request(app)
      .post('/api/studio/schedules')
      .set(as(keys.publisher))
      .send({ note: 'venues row', at: inHours(24) })
      .expect(201);
    await save('Venues Tonight');
    const link = async (at?: string) =>
      tokenOf(
        (
          await request(app)
            .post('/api/studio/preview-links')
            .set(as(keys.editor))
            .send({ brand: 'base', page: 'home', ...(at ? { at } : {}) })
            .expect(201)
        ).body.url,
      );
    const title = async (token: string) =>
      venuesTitle((await request(app).get(`/api/preview/${token}`).expect(200)).body.layout);
    expect(await title(await link())).toBe('Venues Tonight');
    expect(await title(await link(inHours(48)))).toBe('Venues Near You');
    expect(await title(await link(inHours(1)))).toBe('Local Venues');
  });

  it('open nothing once changed by one character, expired, revoked or never made, and say not which', async () => {
    // Every refusal here counts against the client's limit of links that open nothing: room for all of them.
    const { app, keys, studio, records } = await nodeWithUsers({ env: { RATE_LIMIT_KEY_FAILURES_PER_MINUTE: '100' } });
    const made = (
      await request(app)
        .post('/api/studio/preview-links')
        .set('X-Studio-Key', keys.editor)
        .send({ brand: 'base', page: 'home' })
        .expect(201)
    ).body;
    const token = tokenOf(made.url);
    await request(app).get(`/api/preview/${token}`).expect(200);

    // Changed: a character of the payload, of the signature (inside it: the last one carries spare bits), of the
    // header; cut short; or another link's id under a signature of its own.
    const signature = token.split('.')[2]!;
    for (const changed of [
      tampered(token, 1, 5),
      tampered(token, 2, Math.floor(signature.length / 2)),
      tampered(token, 2, 0),
      tampered(token, 0, 3),
      token.slice(0, -1),
      `${token.split('.').slice(0, 2).join('.')}.`,
      'not-a-token',
    ])
      await expectNoSuchLink(app, changed);
    // Signed with another secret's key.
    const foreign = await node({ records, linkKey: previewLinkKey('f'.repeat(32)) });
    await expectNoSuchLink(foreign.app, token);
    // Never made: a good signature over an id nobody made.
    await expectNoSuchLink(app, await studio.links.sign('AAAAAAAAAAAAAAAA', new Date(Date.now() + DAY_MS)));
    // Its own id signed to a past expiry, and a later one than the link's.
    await expectNoSuchLink(app, await studio.links.sign(made.id, new Date(Date.now() - 60_000)));
    await expectNoSuchLink(app, await studio.links.sign(made.id, new Date(Date.parse(made.expires) + DAY_MS)));
    await request(app).get(`/api/preview/${token}`).expect(200);

    // Revoked: by editors of its brand only, at once, and revoking again is fine.
    const revoke = (key: string, id = made.id) =>
      request(app).delete(`/api/studio/preview-links/${id}`).set('X-Studio-Key', key);
    await revoke(keys.viewer).expect(403);
    // Another brand's link is not there for an editor of encore: the 404 of a link never made.
    expect((await revoke(keys.encore).expect(404)).body.error.code).toBe('preview_link_not_found');
    await revoke(keys.editor, 'AAAAAAAAAAAAAAAA').expect(404);
    await revoke(keys.editor, 'nope').expect(400);
    const revoked = (await revoke(keys.editor).expect(200)).body.link;
    expect(revoked).toMatchObject({ id: made.id, revoked: expect.any(String) });
    expect(revoked.url).toBeUndefined();
    expect((await revoke(keys.editor).expect(200)).body.link.revoked).toBe(revoked.revoked);
    await expectNoSuchLink(app, token);
    const audit = (await request(app).get('/api/studio/audit').set('X-Studio-Key', keys.editor)).body.entries;
    expect(audit.filter((e: { action: string }) => e.action === 'revoke-link')).toEqual([
      expect.objectContaining({
        brands: ['base'],
        summary: expect.stringContaining(`revoked preview link ${made.id}`),
      }),
    ]);
  });

  it('expire: a link made seven days and more ago for seven days opens nowhere now', async () => {
    const now = await node();
    // A node whose clock is eight days behind, sharing the records: its links are made as if eight days ago.
    const before = await node({ records: now.records, now: () => Date.now() - 8 * DAY_MS });
    const made = (
      await request(before.app)
        .post('/api/studio/preview-links')
        .send({ brand: 'base', page: 'home', days: 7 })
        .expect(201)
    ).body;
    const token = tokenOf(made.url);
    // By its own clock the link is good; by the time it is now, it has expired.
    await request(before.app).get(`/api/preview/${token}`).expect(200);
    await expectNoSuchLink(now.app, token);
  });

  it("work on every node sharing the records, and end with the maker's right to make them", async () => {
    const first = await nodeWithUsers();
    const second = await node({ records: first.records, env: { PUBLIC_BASE_URL: 'https://tickets.example.com' } });
    const made = (
      await request(first.app)
        .post('/api/studio/preview-links')
        .set('X-Studio-Key', first.keys.editor)
        .send({ brand: 'encore', page: 'home' })
        .expect(403)
    ).body;
    expect(made.error.code).toBe('not_allowed');
    const link = (
      await request(second.app)
        .post('/api/studio/preview-links')
        .set('X-Studio-Key', first.keys.editor)
        .send({ brand: 'base', page: 'home', place: { zip: '10001' } })
        .expect(201)
    ).body;
    // Given on the public origin, opened on the other node.
    expect(link.url).toMatch(/^https:\/\/tickets\.example\.com\/preview\//);
    const token = tokenOf(link.url);
    const shared = SharedPreviewSchema.parse((await request(first.app).get(`/api/preview/${token}`).expect(200)).body);
    expect(shared.layout.location.city).toBe('New York');
    await request(first.app).get(`/preview/${token}`).expect(200);
    // Revoked on the first node: closed on the second.
    await request(first.app)
      .delete(`/api/studio/preview-links/${link.id}`)
      .set('X-Studio-Key', first.keys.editor)
      .expect(200);
    await expectNoSuchLink(second.app, token);

    // A maker who is no longer an editor of the brand takes their links with them.
    const another = (
      await request(first.app)
        .post('/api/studio/preview-links')
        .set('X-Studio-Key', first.keys.editor)
        .send({ brand: 'base', page: 'home' })
        .expect(201)
    ).body;
    await request(second.app)
      .get(`/api/preview/${tokenOf(another.url)}`)
      .expect(200);
    await first.studio.users.grant('Ed', { brand: 'base', role: 'viewer' });
    await expectNoSuchLink(second.app, tokenOf(another.url));
  });

  it('hold back a client whose links keep opening nothing, and are no storefront page', async () => {
    const { app } = await node({ env: { RATE_LIMIT_KEY_FAILURES_PER_MINUTE: '3' } });
    const made = (await request(app).post('/api/studio/preview-links').send({ brand: 'base', page: 'home' })).body;
    const token = tokenOf(made.url);
    // Links that open are not counted.
    for (let i = 0; i < 4; i++) await request(app).get(`/api/preview/${token}`).expect(200);
    // Every address under /preview is the link's page or its 404, never the storefront's shell.
    for (const url of ['/preview', '/preview/a/b', '/preview/x']) {
      const res = await request(app).get(url).expect(404);
      expect(res.text).toContain('This preview link is not valid');
    }
    const limited = await request(app).get(`/api/preview/${tampered(token, 1, 5)}`);
    expect(limited.status).toBe(429);
    expect(limited.headers['cache-control']).toBe('private, no-store');
    await request(app).get(`/preview/${token}`).expect(429);
    await request(app).get('/preview.html').expect(404);
  });
});
