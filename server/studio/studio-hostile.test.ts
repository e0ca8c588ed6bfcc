import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUDIO_KEY_HEADER } from '../../shared/schemas/studio.js';
import { SCHEDULE_MAX_AHEAD_MS } from '../segments/segment-schedule.js';
import { hostile } from '../test/hostile-input.js';
import { studioCatalog, studioNode, TEST_LINK_KEY } from '../test/studio-node.js';
import { previewLinkKey } from './preview-links.js';
import type { Server } from 'node:http';
import { storefrontServer } from '../http/protocol-errors.js';

/**
 * The studio's API under hostile input (RULES 18): bodies, query strings, path parameters, keys and preview link
 * tokens that no studio page would send. Every answer is below 500; every 4xx says what was wrong (`error.code`
 * and a message); a refused change changes nothing (drafts, schedules, versions, preview links, audit log); and
 * nothing of another brand's drafts reaches a user of one brand, whatever they send.
 */

const ADMIN_KEY = 'the-single-admin-key-of-this-shop';
const DAY_MS = 86_400_000;
/** The clock the node makes links and tells schedules ahead by: fixed, so the bounds are exact. */
const T0 = Math.floor(Date.now() / 1000) * 1000;
/** In the drafts of `base` only: no answer to a user of `encore` may carry it. */
const SECRET = 'secret-of-base-5d1c';

let catalog: Awaited<ReturnType<typeof studioCatalog>>;
let clientDir: string;

beforeAll(async () => {
  catalog = await studioCatalog();
  clientDir = path.join(catalog.tmp, 'client');
  await mkdir(clientDir, { recursive: true });
  await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><title>storefront shell</title>');
  await writeFile(path.join(clientDir, 'preview.html'), '<!doctype html><title>shared preview page</title>');
}, 120_000);
/** Every node's server, closed at the end. */
const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) server.close();
  await rm(catalog.tmp, { recursive: true, force: true });
});

type Method = 'get' | 'post' | 'put' | 'delete';

/** A node with the single admin's key and users of `encore` (and a publisher of `base`), guessing never held back. */
async function hostileNode(options: { now?: () => number } = {}) {
  const node = await studioNode(catalog, {
    env: { STUDIO_KEY: ADMIN_KEY, RATE_LIMIT_KEY_FAILURES_PER_MINUTE: '1000000' },
    clientDir,
    ...options,
  });
  const add = async (name: string, brand: string, role: 'viewer' | 'editor' | 'publisher') =>
    (await node.studio.users.add(name, { brand, role })).key;
  const keys = {
    admin: ADMIN_KEY,
    viewer: await add('Vera', 'encore', 'viewer'),
    editor: await add('Ed', 'encore', 'editor'),
    publisher: await add('Pia', 'encore', 'publisher'),
    basePublisher: await add('Bo', 'base', 'publisher'),
  };
  // Through the server a node listens with, which answers what Node's parser refuses (a key over 16 KB: 431).
  const server = storefrontServer(node.app, 5_000);
  servers.push(server);
  const call = (method: Method, url: string, key: string | null = ADMIN_KEY) => {
    const req = request(server)[method](url);
    return key === null ? req : req.set(STUDIO_KEY_HEADER, key);
  };
  const as = (key: string) => ({
    get: (url: string) => call('get', url, key),
    post: (url: string, body: object = {}) => call('post', url, key).send(body),
    put: (url: string, body: object) => call('put', url, key).send(body),
    delete: (url: string) => call('delete', url, key),
  });
  return { ...node, keys, call, as, admin: as(ADMIN_KEY) };
}
type HostileNode = Awaited<ReturnType<typeof hostileNode>>;

const fileText = async (n: HostileNode, file: string) =>
  ((await n.admin.get('/api/studio/state').expect(200)).body as { files: { path: string; text: string }[] }).files.find(
    (f) => f.path === file,
  )!.text;

/**
 * Drafts with something of each brand's in them: `encore`'s home page retitled (a change a publish or a schedule
 * of `encore` would take); on `base`'s home page, the row `encore`'s removes retitled, and `base`'s theater page
 * broken, both with `SECRET` in them (nothing `encore`'s pages show).
 */
async function draftSecrets(n: HostileNode, live: { base: string; encore: string; theater: string }) {
  const save = (file: string, text: string) => n.admin.put(`/api/studio/files/${file}`, { text }).expect(200);
  await save('encore/explore.json', live.encore.replace(/"title": "[^"]*"/, '"title": "Encore Picks"'));
  await save('base/explore.json', live.base.replace('"Browse By Category"', `"Browse ${SECRET}"`));
  await save('base/theater.json', live.theater.replace(/"kind": "[a-z]+"/, `"kind": "${SECRET}"`));
}

async function liveTexts(n: HostileNode) {
  return {
    base: await fileText(n, 'base/explore.json'),
    encore: await fileText(n, 'encore/explore.json'),
    theater: await fileText(n, 'base/theater.json'),
  };
}

/** Everything a change could touch, as the single admin reads it. */
async function snapshot(n: HostileNode): Promise<string> {
  const [state, schedules, versions, links, audit] = await Promise.all(
    ['/state', '/schedules', '/versions', '/preview-links', '/audit'].map(async (p) => {
      const res = await n.admin.get(`/api/studio${p}`);
      expect(res.status, p).toBe(200);
      return res.body as Record<string, unknown>;
    }),
  );
  const entries = audit!.entries as unknown[];
  // A link's address is on the origin it was asked on: each supertest request has a port of its own.
  return JSON.stringify({
    files: state!.files,
    removed: state!.removed,
    schedules,
    versions,
    links,
    audit: [entries.length, entries[0]],
  }).replace(/http:\/\/127\.0\.0\.1:\d+/g, '');
}

/** Below 500, and a 4xx says what was wrong; an answer to a user of `encore` carries nothing of `base`'s drafts. */
function answered(res: request.Response, what: string, key?: string) {
  const label = `${what.slice(0, 300)} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, label).toBeLessThan(500);
  // 431: Node refuses a request whose headers are too large before any app sees it, with no body.
  if (res.status >= 400 && res.status !== 431) {
    expect(res.body?.error?.code, label).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(typeof res.body?.error?.message, label).toBe('string');
    expect(res.body.error.message.length, label).toBeGreaterThan(0);
  }
  if (key !== undefined && key !== ADMIN_KEY) expect(res.text, label).not.toContain(SECRET);
}

const soon = () => new Date(T0 + 3_600_000).toISOString();

// Dates a person (or a script) might send: impossible days, the edges of the ISO years, times without a zone.
const ODD_DATES = [
  '2026-02-30T09:00:00Z',
  '2026-02-29T09:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-11-31',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59+14:00',
  '9999-12-31',
  '2026-12-04T09:00:00',
  '2026-12-04T09:00',
  '2026-12-04 09:00:00Z',
  '2026-12-04T24:00:00Z',
  '2026-12-04T09:00:60Z',
  '2026-12-04T09:00:00+24:00',
  '2026-12-04T09:00:00-00:00',
  '2026-12-04T09:00:00.123456789Z',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '1e12',
  '1764000000000',
  'now',
  '',
];
const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');
/** Dates and times made of parts each a little out of its range, with or without a zone. */
const oddDate = fc.oneof(
  fc.constantFrom(...ODD_DATES),
  fc
    .record({
      year: fc.integer({ min: 0, max: 9999 }),
      month: fc.integer({ min: 0, max: 13 }),
      day: fc.integer({ min: 0, max: 32 }),
      hour: fc.integer({ min: 0, max: 25 }),
      minute: fc.integer({ min: 0, max: 61 }),
      zone: fc.oneof(
        fc.constant(''),
        fc.constant('Z'),
        fc.integer({ min: -15, max: 15 }).map((h) => `${h < 0 ? '-' : '+'}${pad(h)}:00`),
      ),
    })
    .map((d) => `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}T${pad(d.hour)}:${pad(d.minute)}:00${d.zone}`),
);

// Values for a body's fields: hostile strings, any JSON, and the values a field of the wrong type would have.
const CONTROL = ['\u0000', '\u0007', '\b', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u2028', '\u202e'];
const value = fc.oneof(
  { weight: 3, arbitrary: hostile },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      0,
      -1,
      1.5,
      1e308,
      [],
      {},
      ['encore'],
      { brand: 'encore' },
      'encore',
      'base',
      '*',
      'x'.repeat(100_000),
      '\ud800',
      'encore\u0000',
      'a note\nwith a second line',
    ),
  },
  fc.string({ unit: fc.constantFrom(...CONTROL, 'a', ' '), minLength: 1, maxLength: 20 }),
  oddDate,
);
const FIELDS = ['note', 'brand', 'at', 'days', 'page', 'place', 'variation', 'author', 'text', 'path'];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__'];
const key = fc.oneof(fc.constantFrom(...FIELDS), fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 12 }));
/** An object written out by hand, so `__proto__` is a key of its own and a key may come twice. */
const objectText = (entries: [string, unknown][]) =>
  `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
const RAW_BODIES = [
  '',
  ' ',
  'null',
  'true',
  '123',
  '"note"',
  '[]',
  '[{"note":"x"}]',
  '{',
  '{"note":',
  "{'note':'x'}",
  '{"note":"x"}garbage',
  '{"note":"x","__proto__":{"brand":"base","isAdmin":true}}',
  '{"__proto__":{"note":"polluted"}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"note":"x","brand":"encore","brand":"base"}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
  `{"note":"${'x'.repeat(300_000)}"}`,
  '\u0000',
];
const body = fc.record({
  text: fc.oneof(
    fc.constantFrom(...RAW_BODIES),
    fc.array(fc.tuple(key, value), { maxLength: 5 }).map(objectText),
    // Mostly good fields, one or more of them hostile.
    fc
      .record(
        {
          note: fc.oneof(fc.constant('a note'), value),
          brand: fc.oneof(fc.constantFrom('encore', 'base', 'nope'), value),
          at: fc.oneof(fc.constant(soon()), oddDate, value),
          page: fc.oneof(fc.constantFrom('home', 'theater'), value),
          place: fc.oneof(fc.constant({ zip: '60601' }), value),
          days: fc.oneof(fc.constant(3), value),
        },
        { requiredKeys: [] },
      )
      .map((o) => JSON.stringify(o)),
  ),
  type: fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/merge-patch+json',
    ),
  ),
});

const CHANGES: [Method, string][] = [
  ['post', '/api/studio/schedules'],
  ['post', '/api/studio/publish'],
  ['post', '/api/studio/discard'],
  ['post', '/api/studio/preview-links'],
  ['post', '/api/studio/versions/1/restore'],
];

describe('the studio API under hostile input', () => {
  let n: HostileNode;
  let live: Awaited<ReturnType<typeof liveTexts>>;
  let linkId: string;
  let linkToken: string;
  let scheduleId: string;

  beforeAll(async () => {
    n = await hostileNode({ now: () => T0 });
    live = await liveTexts(n);
    await draftSecrets(n, live);
    // A schedule of both brands (base's part with the secret) and a link, for the paths and keys to aim at.
    await n.admin.put('/api/studio/files/base/theater.json', { text: live.theater }).expect(200);
    scheduleId = (await n.admin.post('/api/studio/schedules', { note: 'both brands', at: soon() }).expect(201)).body
      .schedule.id;
    await draftSecrets(n, live);
    const made = (await n.admin.post('/api/studio/preview-links', { brand: 'encore', page: 'home' }).expect(201))
      .body as { id: string; url: string };
    linkId = made.id;
    linkToken = made.url.slice(made.url.lastIndexOf('/') + 1);
  });

  it('answers hostile JSON bodies on every change with a 4xx naming the problem, changing nothing then', async () => {
    let before = await snapshot(n);
    // Someone who edits no brand discards nothing, and is told so.
    expect((await n.as(n.keys.viewer).post('/api/studio/discard', {}).expect(403)).body.error.code).toBe('not_allowed');
    let refusals = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CHANGES),
        fc.constantFrom<keyof HostileNode['keys']>('admin', 'viewer', 'editor', 'publisher'),
        body,
        async ([method, url], who, { text, type }) => {
          const res = await n.call(method, url, n.keys[who]).set('Content-Type', type).send(text);
          const what = `${who} ${method} ${url} (${type}) ${text}`;
          answered(res, what, n.keys[who]);
          // A viewer of one brand changes nothing, whatever they send.
          if (who === 'viewer') expect(res.status, what.slice(0, 300)).toBeGreaterThanOrEqual(400);
          if (res.status >= 400) {
            refusals++;
            expect(await snapshot(n), what.slice(0, 300)).toBe(before);
          } else {
            // Something good got through: the drafts are put back as they were, and this is the new start.
            await draftSecrets(n, live);
            before = await snapshot(n);
          }
        },
      ),
      { numRuns: 25, seed: 18 },
    );
    expect(refusals).toBeGreaterThan(15);
    // Nothing of a body reached the objects every other one is made from.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
  }, 60_000);

  it('answers hostile query strings with a 4xx naming the problem', async () => {
    const before = await snapshot(n);
    const templates: ((v: string) => string)[] = [
      (v) => `/api/studio/schedules?brand=${v}`,
      (v) => `/api/studio/schedules?brand=encore&brand=${v}`,
      (v) => `/api/studio/audit?brand=${v}`,
      (v) => `/api/studio/audit?brand=${v}&brand=${v}`,
      (v) => `/api/studio/preview-links?brand=${v}`,
      (v) => `/api/studio/rows?brand=${v}&page=${v}&since=${v}&until=${v}`,
      (v) => `/api/studio/rows?brand=encore&page=home&since=${v}`,
      (v) => `/api/studio/rows?brand=encore&page=home&until=${v}&until=${v}`,
      (v) => `/api/studio/rows?brand=encore&page=home&since[$gt]=${v}`,
      (v) => `/api/studio/preview?page=home&brand=encore&at=${v}`,
      (v) => `/api/studio/preview?page=${v}&brand=${v}&zip=${v}&city=${v}&variation=${v}&at=${v}`,
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          hostile.filter((v) => v.length < 1000),
          oddDate,
          fc.constantFrom('x'.repeat(12_000), 'é'.repeat(2000)),
        ),
        fc.constantFrom<keyof HostileNode['keys']>('admin', 'viewer'),
        async (v, who) => {
          for (const template of templates) {
            const url = template(encodeURIComponent(v));
            answered(await n.call('get', url, n.keys[who]), `${who} GET ${url}`, n.keys[who]);
          }
        },
      ),
      { numRuns: 16, seed: 18 },
    );
    expect(await snapshot(n)).toBe(before);
  }, 60_000);

  it('reads odd dates as the rules say: a real day and, for a time to publish or preview at, its zone', async () => {
    const status = async (url: string) => {
      const res = await n.admin.get(url);
      answered(res, url);
      return res.status;
    };
    const rows = (q: string) => status(`/api/studio/rows?brand=encore&page=home&${q}`);
    // Row results take a date, or a date and time (UTC without a zone), in the years 0001 to 9999.
    expect(await rows('since=2026-02-30')).toBe(400);
    expect(await rows('since=0000-01-01T00:00:00Z')).toBe(400);
    expect(await rows('until=0000-12-30')).toBe(400);
    expect(await rows('until=9999-12-31')).toBe(400);
    expect(await rows('until=0001-01-01T00:00:00Z')).toBe(400);
    expect(await rows('since=9999-12-31T23:59:59%2B14:00')).toBe(400);
    expect(await rows('until=0001-01-02')).toBe(200);
    expect(await rows('since=0001-01-01&until=0001-02-01')).toBe(200);
    expect(await rows('since=2020-01-01T10:00&until=9999-12-31T23:59:59%2B14:00')).toBe(200);
    expect(await rows('since=2020-01-01&since=2021-01-01')).toBe(400);
    // The preview's time needs its zone; any real one is a time the site can be drawn as of.
    const preview = (at: string) => status(`/api/studio/preview?page=home&brand=encore&at=${encodeURIComponent(at)}`);
    expect(await preview('2026-02-30T09:00:00Z')).toBe(400);
    expect(await preview('2026-12-04T09:00:00')).toBe(400);
    expect(await preview('2026-12-04T09:00:00+24:00')).toBe(400);
    expect(await preview('0000-01-01T00:00:00Z')).toBe(200);
    expect(await preview('9999-12-31T23:59:59+14:00')).toBe(200);
  });

  it('refuses a schedule at or before now, or over a year ahead, and keeps the schedules as they were', async () => {
    const schedules = async () => (await n.admin.get('/api/studio/schedules').expect(200)).body.schedules;
    const before = await schedules();
    const at = (ms: number) => new Date(ms).toISOString();
    const refused: [string, string][] = [
      [at(T0), 'time_passed'],
      [at(T0 - 1), 'time_passed'],
      ['0000-01-01T00:00:00Z', 'time_passed'],
      [at(T0 + 367 * DAY_MS), 'time_too_far'],
      [at(T0 + SCHEDULE_MAX_AHEAD_MS + 1), 'time_too_far'],
      ['9999-12-31T23:59:59+14:00', 'time_too_far'],
      ['2026-02-30T09:00:00Z', 'invalid_request'],
      [at(T0 + DAY_MS).replace('Z', ''), 'invalid_request'],
    ];
    for (const [when, code] of refused) {
      for (const key of [n.keys.admin, n.keys.publisher]) {
        const res = await n.as(key).post('/api/studio/schedules', { note: 'hostile', brand: 'encore', at: when });
        answered(res, when, key);
        expect(res.status, when).toBe(400);
        expect(res.body.error.code, when).toBe(code);
      }
    }
    expect(await schedules()).toEqual(before);
    // A year ahead, to the millisecond, is not too far.
    await n.admin
      .put('/api/studio/files/encore/explore.json', { text: live.encore.replace('"Top Categories"', '"Top Picks"') })
      .expect(200);
    const farthest = await n.as(n.keys.publisher).post('/api/studio/schedules', {
      note: 'a year ahead',
      brand: 'encore',
      at: at(T0 + SCHEDULE_MAX_AHEAD_MS),
    });
    expect(farthest.status, farthest.text).toBe(201);
    await n.as(n.keys.publisher).delete(`/api/studio/schedules/${farthest.body.schedule.id}`).expect(200);
    await draftSecrets(n, live);
  });

  it('answers hostile path parameters with a 4xx, and changes nothing then', async () => {
    const before = await snapshot(n);
    const ids = [
      '0',
      '-1',
      '1e3',
      '1.0',
      '+1',
      '0x1',
      '99999999999',
      '9999999999',
      'AAAAAAAAAAAAAAAA',
      `${linkId}x`,
      linkId.slice(1),
      '__proto__',
      'constructor',
      'x'.repeat(10_000),
      'ünïcødé',
      '☃',
      '\u0000',
      ' 1',
      '1\n',
      '../x',
      '../../../etc/passwd',
      '%2e%2e%2fx',
    ];
    const calls: [Method, (id: string) => string, keyof HostileNode['keys']][] = [
      ['delete', (id) => `/api/studio/schedules/${id}`, 'admin'],
      ['delete', (id) => `/api/studio/schedules/${id}`, 'publisher'],
      ['delete', (id) => `/api/studio/preview-links/${id}`, 'admin'],
      ['delete', (id) => `/api/studio/preview-links/${id}`, 'editor'],
      ['get', (id) => `/api/studio/versions/${id}`, 'viewer'],
      ['post', (id) => `/api/studio/versions/${id}/restore`, 'admin'],
    ];
    const check = async (id: string) => {
      const forms = [encodeURIComponent(id), ...(/^[\x21-\x7e]+$/.test(id) ? [id] : [])];
      for (const encoded of new Set(forms)) {
        for (const [method, url, who] of calls) {
          const req = n.call(method, url(encoded), n.keys[who]);
          const res = method === 'post' ? await req.send({}) : await req;
          const what = `${who} ${method} ${url(encoded).slice(0, 200)}`;
          answered(res, what, n.keys[who]);
          // None of these is the schedule, the link or a version there is: all are refused.
          expect(res.status, what).toBeGreaterThanOrEqual(400);
        }
      }
    };
    for (const id of ids) await check(id);
    // Whole numbers are ids a schedule or a version may have: the ones above are enough of those.
    await fc.assert(
      fc.asyncProperty(
        // Nor is an empty or dot segment a parameter: it is another route's address, or the same one.
        hostile.filter((v) => !/^\d+$/.test(v) && !/^\.*$/.test(v)),
        check,
      ),
      { numRuns: 10, seed: 18 },
    );
    expect(await snapshot(n)).toBe(before);
    // Well formed but no one's: said so.
    expect((await n.admin.delete('/api/studio/schedules/9999999999').expect(404)).body.error.code).toBe(
      'schedule_not_found',
    );
    expect((await n.admin.delete('/api/studio/preview-links/AAAAAAAAAAAAAAAA').expect(404)).body.error.code).toBe(
      'preview_link_not_found',
    );
  }, 60_000);

  it('refuses a draft nesting deeper than any segment file, before it is kept or checked (RULES 14.15)', async () => {
    const before = await snapshot(n);
    // Plain, and with a string or a comment the parser ends where a naive count would not.
    const texts = ['['.repeat(5000) + ']'.repeat(5000), '["x\n' + '['.repeat(20_000), '// c\r' + '['.repeat(20_000)];
    for (const text of texts) {
      for (const res of [
        await n.admin.put('/api/studio/files/base/theater.json', { text }),
        await n.admin.post('/api/studio/check', { path: 'base/theater.json', text }),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body.error).toEqual({
          code: 'draft_too_deep',
          message: "A segment file's brackets may nest at most 32 deep",
        });
      }
    }
    expect(await snapshot(n)).toBe(before);
    await n.admin.get('/api/studio/state').expect(200);
  });

  it('takes no hostile key for a studio key, and changes nothing for one', async () => {
    const before = await snapshot(n);
    const user = n.keys.publisher;
    const flip = (k: string, i: number) => k.slice(0, i) + (k[i] === 'A' ? 'B' : 'A') + k.slice(i + 1);
    const keys = [
      '',
      ' ',
      '\t',
      '0',
      'null',
      'undefined',
      '[object Object]',
      'sk_',
      ADMIN_KEY.toUpperCase(),
      ADMIN_KEY.slice(0, -1),
      `${ADMIN_KEY}x`,
      `${ADMIN_KEY}\u00ff`,
      `\u00e9${ADMIN_KEY}`,
      // The key sent twice reads as one list of both: no key either.
      `${ADMIN_KEY}, ${ADMIN_KEY}`,
      flip(user, user.length - 1),
      flip(user, 3),
      user.slice(0, -1),
      `${user}=`,
      'clé',
      '\u00ff\u00fe\u0080',
      'k'.repeat(8_000),
      'k'.repeat(100_000),
      linkToken,
    ];
    const latin1 = fc.string({
      unit: fc
        .integer({ min: 0x20, max: 0xff })
        .filter((c) => c !== 0x7f)
        .map((c) => String.fromCharCode(c)),
      minLength: 1,
      maxLength: 200,
    });
    const calls = (k: string): request.Test[] => [
      n.call('get', '/api/studio/state', k),
      n.call('post', '/api/studio/publish', k).send({ note: 'with a hostile key', brand: 'encore' }),
      n.call('post', '/api/studio/schedules', k).send({ note: 'hostile', brand: 'encore', at: soon() }),
      n.call('delete', `/api/studio/schedules/${scheduleId}`, k),
      n.call('post', '/api/studio/discard', k).send({}),
      n.call('delete', `/api/studio/preview-links/${linkId}`, k),
      n.call('get', '/api/studio/audit', k),
    ];
    const refused = async (k: string) => {
      for (const req of calls(k)) {
        const res = await req;
        answered(res, `key ${JSON.stringify(k.slice(0, 100))}`, k);
        if (k.length > 16_000) expect(res.status).toBe(431);
        else {
          expect(res.status, JSON.stringify(k.slice(0, 100))).toBe(401);
          expect(res.body.error.code).toMatch(/^studio_key_(required|invalid)$/);
        }
      }
    };
    for (const k of keys) await refused(k);
    await fc.assert(
      fc.asyncProperty(latin1, async (k) => {
        if (k.trim() !== ADMIN_KEY && k.trim() !== user) await refused(k);
      }),
      { numRuns: 15, seed: 18 },
    );
    // A removed user's key is no key at all.
    const gone = (await n.studio.users.add('Gone', { brand: 'encore', role: 'publisher' })).key;
    await n.studio.users.remove('Gone');
    await refused(gone);
    expect(await snapshot(n)).toBe(before);
  }, 60_000);

  it('opens nothing for a hostile preview link token, page or API, and tells nothing of why', async () => {
    // The real link opens: what follows would catch one that opened when it should not.
    await request(n.app).get(`/api/preview/${linkToken}`).expect(200);
    await request(n.app).get(`/preview/${linkToken}`).expect(200);
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const [header, payload, signature] = linkToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    /** The link's own token but for what `changed` says (signed with our key, it is the very token). */
    const sign = (changed: { key?: Uint8Array; jti?: string; aud?: string; iss?: string; exp?: number }) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(changed.iss ?? 'storefront')
        .setAudience(changed.aud ?? 'studio-preview-link')
        .setJti(changed.jti ?? linkId)
        .setExpirationTime(changed.exp ?? (claims.exp as number))
        .sign(changed.key ?? TEST_LINK_KEY);
    expect(await sign({})).toBe(linkToken);
    const tokens = [
      `${linkToken}.`,
      `${linkToken}x`,
      `${header}.${payload}`,
      `${header}.${payload}.`,
      `.${payload}.${signature}`,
      `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.x`,
      `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.${signature}`,
      `${b64({ alg: 'HS512' })}.${payload}.${signature}`,
      `${header}.${b64({ ...claims, exp: (claims.exp as number) + 3600 })}.${signature}`,
      await sign({ key: previewLinkKey('another secret, another shop') }),
      await sign({ jti: 'AAAAAAAAAAAAAAAA' }),
      await sign({ jti: '__proto__' }),
      await sign({ jti: '../../etc/passwd' }),
      await sign({ aud: 'someone-else' }),
      await sign({ iss: 'someone-else' }),
      await sign({ exp: (claims.exp as number) + 1 }),
      await sign({ exp: Math.floor(T0 / 1000) - 1 }),
      linkToken.toUpperCase(),
      'a.b.c',
      'x'.repeat(10_000),
      `${'a'.repeat(201)}.b.c`,
      '☃.☃.☃',
      '__proto__',
      'constructor',
      ADMIN_KEY,
    ];
    const noSuchLink = async (token: string) => {
      const encoded = encodeURIComponent(token);
      const api = await request(n.app).get(`/api/preview/${encoded}`);
      answered(api, `GET /api/preview/${encoded}`, 'none');
      expect(api.status, encoded.slice(0, 200)).toBe(404);
      expect(api.body.error.code).toBe('preview_link_not_found');
      const page = await request(n.app).get(`/preview/${encoded}`);
      expect(page.status, encoded.slice(0, 200)).toBe(404);
      expect(page.text).toContain('This preview link is not valid');
      expect(page.text).not.toContain(SECRET);
      for (const res of [api, page]) expect(res.headers['cache-control']).toBe('private, no-store');
    };
    for (const token of tokens) await noSuchLink(token);
    await fc.assert(
      fc.asyncProperty(
        hostile.filter((v) => v.length > 0 && v !== linkToken),
        noSuchLink,
      ),
      { numRuns: 30, seed: 18 },
    );
    // Dot segments: never sent by a browser (it reads them away), and never a link's page.
    for (const dots of ['.', '..']) {
      answered(await request(n.app).get(`/api/preview/${dots}`), dots);
      const page = await request(n.app).get(`/preview/${dots}`);
      expect(page.status).toBeLessThan(500);
      expect(page.status).not.toBe(200);
    }
    // Raw, an encoding that is no encoding, and more than one part: refused before a link is looked for.
    for (const raw of ['%zz', '%', `${linkToken}/x`, `x/${linkToken}`, `${linkToken}%2Fx`]) {
      const api = await request(n.app).get(`/api/preview/${raw}`);
      answered(api, raw);
      expect(api.status).toBeGreaterThanOrEqual(400);
      // The storefront's own answer to an address it cannot read (400), or the page of a link that is none.
      expect([400, 404]).toContain((await request(n.app).get(`/preview/${raw}`)).status);
    }
    // A revoked link opens nothing, and is as unknown as any other token.
    await n.admin.delete(`/api/studio/preview-links/${linkId}`).expect(200);
    await noSuchLink(linkToken);
  }, 60_000);
});

describe('the studio keeps each brand to itself, whatever is asked', () => {
  it('shows a user of one brand no problems, diffs or file names of another brand', async () => {
    const n = await hostileNode();
    const live = await liveTexts(n);
    // Scheduled for both brands at once, base's part with the secret in it.
    await draftSecrets(n, live);
    await n.admin.put('/api/studio/files/base/theater.json', { text: live.theater }).expect(200);
    await n.admin.post('/api/studio/schedules', { note: 'both brands', at: soon() }).expect(201);
    // And base's theater page broken, with the secret as its row's kind.
    await draftSecrets(n, live);

    const asViewer = n.as(n.keys.viewer);
    const audit = (await asViewer.get('/api/studio/audit').expect(200)).body.entries as {
      action: string;
      diff?: string;
    }[];
    const scheduled = audit.find((e) => e.action === 'schedule')!;
    expect(scheduled.diff).toContain('+++ b/encore/explore.json');
    expect(scheduled.diff).not.toContain('base/');
    const forAdmin = (await n.admin.get('/api/studio/audit').expect(200)).body.entries as typeof audit;
    expect(forAdmin.find((e) => e.action === 'schedule')!.diff).toContain(SECRET);
    const { schedules } = (await asViewer.get('/api/studio/schedules').expect(200)).body;
    expect(schedules[0].changes).toEqual({ added: [], changed: ['encore/explore.json'], removed: [] });
    expect((await n.admin.get('/api/studio/schedules').expect(200)).body.schedules[0].changes.changed).toEqual([
      'base/explore.json',
      'encore/explore.json',
    ]);

    // A page that draws: base's problems are not encore's to read.
    const home = await asViewer.get('/api/studio/preview?page=home&brand=encore');
    expect(home.status).toBe(200);
    expect(home.body.problems).toEqual([]);
    expect((await n.admin.get('/api/studio/preview?page=home&brand=encore').expect(200)).body.problems).toEqual([
      expect.objectContaining({ file: 'base/theater.json', value: expect.stringContaining(SECRET) }),
    ]);
    // A page that cannot (encore's theater page is base's): refused with the reason, and none of base's problems.
    for (const res of [
      await asViewer.get('/api/studio/preview?page=theater&brand=encore'),
      await n.as(n.keys.editor).post('/api/studio/preview-links', { brand: 'encore', page: 'theater' }),
    ]) {
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'draft_invalid', details: [] });
      expect(res.body.error.message).toMatch(/1 of the problems is in files of other brands, not listed here/);
      expect(res.text).not.toContain(SECRET);
    }

    // A publish of base that breaks encore's page: base's publisher reads that it does, not encore's file.
    await n.admin.post('/api/studio/discard', {}).expect(200);
    await n.admin
      .put('/api/studio/files/base/explore.json', {
        text: live.base.replaceAll('"popular-local-performers"', '"local-performers"'),
      })
      .expect(200);
    const files = (res: request.Response) => (res.body.error.details as { file: string }[]).map((p) => p.file);
    const publish = await n.as(n.keys.basePublisher).post('/api/studio/publish', { note: 'rename', brand: 'base' });
    expect(publish.status).toBe(422);
    expect(files(publish)).toEqual(['base/explore~promos.json']);
    expect(publish.body.error.message).toMatch(/\(1 of the problems is in files of other brands, not listed here\)$/);
    const byAdmin = await n.admin.post('/api/studio/publish', { note: 'rename', brand: 'base' });
    expect(byAdmin.status).toBe(422);
    expect(files(byAdmin).sort()).toEqual(['base/explore~promos.json', 'encore/explore.json']);
    expect(byAdmin.body.error.message).not.toMatch(/other brands/);
  });

  it('draws each preview of the site as of a time from that time, however many are asked at once', async () => {
    const n = await hostileNode();
    const explore = await fileText(n, 'base/explore.json');
    const hour = 3_600_000;
    const at = (h: number) => new Date(Date.now() + h * hour).toISOString();
    for (const [h, title] of [
      [1, 'First Look'],
      [2, 'Second Look'],
    ] as const) {
      await n.admin
        .put('/api/studio/files/base/explore.json', {
          text: explore.replace('"title": "Explore"', `"title": "${title}"`),
        })
        .expect(200);
      await n.admin.post('/api/studio/schedules', { note: title, at: at(h) }).expect(201);
    }
    const asked = ['First Look', 'Second Look', 'Explore'].flatMap((title) => [title, title, title]);
    const when = { 'First Look': at(1.5), 'Second Look': at(2.5), Explore: at(0.5) } as Record<string, string>;
    const zips = ['60601', '10001', '94103', '30301'];
    const answers = await Promise.all(
      asked.map((title, i) =>
        n.admin.get(
          `/api/studio/preview?page=home&zip=${zips[i % zips.length]}&at=${encodeURIComponent(when[title]!)}`,
        ),
      ),
    );
    expect(answers.map((res) => `${res.status} ${res.body.layout?.title}`)).toEqual(asked.map((t) => `200 ${t}`));
  });

  it('discards one brand’s drafts and none of another’s: stray files and saves made meanwhile stay', async () => {
    const n = await hostileNode();
    const live = await liveTexts(n);
    const drafts = path.join(n.root, 'segment-drafts');
    // A copy someone made in their editor, in base's folder: not a segment file's name, and not encore's.
    await writeFile(path.join(drafts, 'base', 'explore copy.json'), live.base);
    for (let i = 0; i < 8; i++) {
      await n
        .as(n.keys.editor)
        .put('/api/studio/files/encore/explore.json', {
          text: live.encore.replace(/"title": "[^"]*"/, `"title": "Encore ${i}"`),
        })
        .expect(200);
      const text = live.base.replace('"title": "Explore"', `"title": "Base ${i}"`);
      const [discarded] = await Promise.all([
        n.as(n.keys.editor).post('/api/studio/discard', {}),
        n.admin.put('/api/studio/files/base/explore.json', { text }).expect(200),
      ]);
      answered(discarded, 'discard', n.keys.editor);
      expect(discarded.status).toBe(200);
      expect(await readFile(path.join(drafts, 'base', 'explore.json'), 'utf8')).toBe(text);
      expect(await readFile(path.join(drafts, 'encore', 'explore.json'), 'utf8')).toBe(live.encore);
    }
    expect(await readFile(path.join(drafts, 'base', 'explore copy.json'), 'utf8')).toBe(live.base);
    // The admin's discard of everything takes the stray copy too, as the drafts are then the live set.
    await n.admin.post('/api/studio/discard', {}).expect(200);
    const state = (await n.admin.get('/api/studio/state').expect(200)).body;
    expect(state.files.every((f: { status: string }) => f.status === 'unchanged')).toBe(true);
    expect(state.files.map((f: { path: string }) => f.path)).not.toContain('base/explore copy.json');
  });
});
