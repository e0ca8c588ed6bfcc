import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCatalog } from './ensure-catalog.js';
import { generateCatalog } from './generate/generate-catalog.js';
import { importCatalog, ImportInputError } from './import-catalog.js';
import { loadCatalog, type CatalogCollections } from './load-catalog.js';
import { collectionFile, readManifest } from './manifest.js';

let tmp: string;
let demo: CatalogCollections;

const jsonl = (docs: unknown[]) => docs.map((d) => (typeof d === 'string' ? d : JSON.stringify(d))).join('\n') + '\n';

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'catalog-import-'));
  await generateCatalog({
    events: 300,
    seed: 5,
    start: new Date().toISOString().slice(0, 10),
    outDir: path.join(tmp, 'demo'),
  });
  demo = (await loadCatalog(path.join(tmp, 'demo'))).collections;
});

afterAll(() => rm(tmp, { recursive: true, force: true }));

/** A fresh copy of the demo catalog to import into. */
async function target(name: string): Promise<string> {
  const out = path.join(tmp, name);
  await generateCatalog({ events: 300, seed: 5, start: new Date().toISOString().slice(0, 10), outDir: out });
  return out;
}

describe('importCatalog', () => {
  it(
    "replaces the named collections with the operator's documents, keeps the " +
      'others, and the server loads the result',
    async () => {
      const out = await target('replace');
      const feed = path.join(tmp, 'feed-ok');
      await mkdir(feed, { recursive: true });
      const events = demo.Event.slice(0, 40).map((e, i) => ({ ...e, event_name: `Operator Show ${i}` }));
      await writeFile(path.join(feed, 'Event.jsonl'), jsonl(events.slice(0, 25)));
      await writeFile(path.join(feed, 'Event.part-2.jsonl'), jsonl(events.slice(25)));
      const report = await importCatalog([feed], out);
      expect(report).toMatchObject({ applied: true, problems: [], counts: { Event: 40 } });
      const loaded = await loadCatalog(out);
      expect(loaded.collections.Event.map((e) => e.event_name)).toEqual(events.map((e) => e.event_name));
      expect(loaded.collections.Venue).toEqual(demo.Venue);
      expect(loaded.manifest).toMatchObject({ source: 'import', counts: { Event: 40, Venue: demo.Venue.length } });
      // An imported catalog is the operator's: the server does not replace it when its dates grow old.
      const later = new Date(Date.now() + 90 * 86_400_000);
      expect(
        await ensureCatalog({ dir: out, events: 300, seed: 5, logger: pino({ level: 'silent' }), now: later }),
      ).toBe('kept');
    },
  );

  it('reports every bad line with its file, line, field path and value, and then imports nothing', async () => {
    const out = await target('bad');
    const before = await readFile(collectionFile(out, 'Event'), 'utf8');
    const file = path.join(tmp, 'Event.jsonl');
    const [a, b, c] = demo.Event;
    await writeFile(
      file,
      jsonl([
        a,
        { ...b, venue_location: [95, -70] },
        '{"id": "1",',
        '',
        { ...c, id: 'abc' },
        { ...c, seats: 4 },
        a,
        { ...c, performer_ids: [] },
      ]),
    );
    const report = await importCatalog([file], out);
    expect(report.applied).toBe(false);
    expect(report.problems.map((p) => [p.line, p.message])).toEqual([
      [2, expect.stringMatching(/^Field `venue_location\.0`: .* \(found 95\)\.$/)],
      [3, 'not valid JSON: {"id": "1",'],
      [5, expect.stringMatching(/`id` must be the event_id as a string .* not "abc"/)],
      [6, 'Field `seats` is not a field of Event documents.'],
      [7, `id "${a!.id}" was already given at ${file}:1`],
      [8, expect.stringMatching(/^Field `performer_ids`: .* \(found \[\]\)\.$/)],
    ]);
    expect(report.problems.every((p) => p.file === file)).toBe(true);
    expect(await readFile(collectionFile(out, 'Event'), 'utf8')).toBe(before);
  });

  it('refuses files that are no collection, and missing ones, before reading anything', async () => {
    const stray = path.join(tmp, 'Concerts.jsonl');
    await writeFile(stray, '{}\n');
    await expect(importCatalog([stray], path.join(tmp, 'never'))).rejects.toThrow(ImportInputError);
    await expect(importCatalog([path.join(tmp, 'nope.jsonl')], path.join(tmp, 'never'))).rejects.toThrow(
      /no such file/,
    );
    await expect(importCatalog([], path.join(tmp, 'never'))).rejects.toThrow(/at least one/);
  });

  it('starts a catalog from nothing, with the collections not imported empty', async () => {
    const out = path.join(tmp, 'fresh', 'catalog');
    const file = path.join(tmp, 'fresh-Venue', 'Venue.jsonl');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, jsonl(demo.Venue.slice(0, 3)));
    expect((await importCatalog([file], out)).applied).toBe(true);
    const manifest = await readManifest(out);
    expect(manifest?.counts).toMatchObject({ Venue: 3, Event: 0, Performer: 0 });
  });
});

describe('importing listings', () => {
  const listing = (eventId: number, n: number, extra: Record<string, unknown> = {}) => ({
    id: String(eventId * 1000 + n),
    listing_id: eventId * 1000 + n,
    event_id: eventId,
    section: `Floor ${n}`,
    row: 'A',
    quantity: 4,
    price_per_ticket: 120,
    pairs_only: false,
    delivery_method: 'eticket',
    seller_notes: '',
    in_hand_date: '2027-01-01',
    ...extra,
  });

  it(
    "brings the operator's own listings for the catalog's events, and refuses " +
      'ones that name no event or break the id rule',
    async () => {
      const out = await target('listings');
      const [a, b] = demo.Event;
      const good = path.join(tmp, 'listings-good', 'Listing.jsonl');
      await mkdir(path.dirname(good), { recursive: true });
      await writeFile(
        good,
        jsonl([listing(a!.event_id, 0), listing(a!.event_id, 1, { price_per_ticket: 87.5 }), listing(b!.event_id, 0)]),
      );
      const report = await importCatalog([good], out);
      expect(report).toMatchObject({ applied: true, counts: { Listing: 3 } });
      expect((await readManifest(out))?.listings).toBe(3);
      // Each event's lowest price (the cards' "From") is its cheapest listing's; the other events keep theirs.
      const events = new Map((await loadCatalog(out)).collections.Event.map((e) => [e.event_id, e]));
      expect(events.get(a!.event_id)!.min_ticket_price).toBe(87.5);
      expect(events.get(b!.event_id)!.min_ticket_price).toBe(120);
      const other = demo.Event.find((e) => e.event_id !== a!.event_id && e.event_id !== b!.event_id)!;
      expect(events.get(other.event_id)).toEqual(other);
      // Importing other collections keeps them, while the events stay.
      const venues = path.join(tmp, 'listings-venues', 'Venue.jsonl');
      await mkdir(path.dirname(venues), { recursive: true });
      await writeFile(venues, jsonl(demo.Venue));
      await importCatalog([venues], out);
      expect((await readManifest(out))?.listings).toBe(3);

      const bad = path.join(tmp, 'listings-bad', 'Listing.jsonl');
      await mkdir(path.dirname(bad), { recursive: true });
      await writeFile(
        bad,
        jsonl([
          listing(a!.event_id, 0),
          listing(99_999_999, 0),
          { ...listing(a!.event_id, 2), listing_id: 5 },
          listing(a!.event_id, 0),
          listing(a!.event_id, 3, { quantity: 0 }),
        ]),
      );
      const refused = await importCatalog([bad], out);
      expect(refused.applied).toBe(false);
      expect(refused.problems.map((p) => [p.line, p.message])).toEqual([
        [2, 'Field `event_id`: no event 99999999 in the catalog.'],
        [3, expect.stringMatching(/^Field `listing_id`: listing_id must be the event_id times 1000/)],
        [4, `listing_id ${a!.event_id * 1000} was already given at ${bad}:1`],
        [5, expect.stringMatching(/^Field `quantity`: .* \(found 0\)\.$/)],
      ]);
    },
  );
});

describe('face values (RULES 20.2)', () => {
  it('are required of listings for events in the United Kingdom, and kept when given', async () => {
    const out = await target('face-values');
    const [uk, us] = demo.Event;
    const dir = path.join(tmp, 'face-values-in');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'Event.jsonl'),
      jsonl(demo.Event.map((e) => (e.event_id === uk!.event_id ? { ...e, venue_country_short: 'GB' } : e))),
    );
    const line = (eventId: number, extra: Record<string, unknown> = {}) => ({
      id: String(eventId * 1000),
      listing_id: eventId * 1000,
      event_id: eventId,
      section: 'Stalls',
      row: 'C',
      quantity: 2,
      price_per_ticket: 95,
      pairs_only: false,
      delivery_method: 'eticket',
      seller_notes: '',
      in_hand_date: '2027-01-01',
      ...extra,
    });
    await writeFile(path.join(dir, 'Listing.jsonl'), jsonl([line(uk!.event_id), line(us!.event_id)]));
    const refused = await importCatalog([path.join(dir, 'Event.jsonl'), path.join(dir, 'Listing.jsonl')], out);
    expect(refused.applied).toBe(false);
    expect(refused.problems.map((p) => [p.line, p.message])).toEqual([
      [1, "Field `face_value`: required for an event in GB (a resold ticket's face value must be given)."],
    ]);
    await writeFile(
      path.join(dir, 'Listing.jsonl'),
      jsonl([line(uk!.event_id, { face_value: 80 }), line(us!.event_id)]),
    );
    const report = await importCatalog([path.join(dir, 'Event.jsonl'), path.join(dir, 'Listing.jsonl')], out);
    expect(report).toMatchObject({ applied: true, counts: { Listing: 2 } });
  });
});

describe('npm run catalog -- import', () => {
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/catalog.ts', 'import', ...args], { encoding: 'utf8' });

  it('prints each bad line as file:line: problem and exits 1; imports a good feed and exits 0', async () => {
    const out = await target('cli');
    const bad = path.join(tmp, 'cli-bad', 'Performer.jsonl');
    await mkdir(path.dirname(bad), { recursive: true });
    await writeFile(bad, jsonl([demo.Performer[0], { ...demo.Performer[1], performer_name: '' }]));
    const refused = cli(bad, '--out', out);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`${bad}:2: Field \`performer_name\``);
    expect(refused.stderr).toMatch(/1 bad lines: nothing imported/);
    const good = path.join(tmp, 'cli-good', 'Performer.jsonl');
    await mkdir(path.dirname(good), { recursive: true });
    await writeFile(good, jsonl(demo.Performer.slice(0, 5)));
    const imported = cli(good, '--out', out);
    expect(imported.stderr).toBe('');
    expect(imported.status).toBe(0);
    expect(imported.stdout).toMatch(/imported into .* Performer 5/);
    expect(cli(path.join(tmp, 'Concerts.jsonl'), '--out', out).status).toBe(2);
  });
});

describe("the README's example lines", () => {
  it('are documents the import and the documents API accept', async () => {
    const readme = await readFile('README.md', 'utf8');
    const block = readme
      .slice(readme.indexOf('```jsonl') + '```jsonl'.length, readme.indexOf('```', readme.indexOf('```jsonl') + 8))
      .trim()
      .split('\n');
    const table = [...readme.matchAll(/^\| `(\w+)\.jsonl` \| `(\{.*\})` \|$/gm)].map((m) => [m[1]!, m[2]!] as const);
    expect(table.map(([name]) => name)).toEqual([
      'ZipEvent',
      'Banner',
      'Explore',
      'ZipEventDetermination',
      'USCity',
      'TSImage',
    ]);
    const dir = path.join(tmp, 'readme');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'Venue.jsonl'), block[0] + '\n');
    await writeFile(path.join(dir, 'Performer.jsonl'), block[1] + '\n');
    await writeFile(path.join(dir, 'Event.jsonl'), block[2] + '\n');
    for (const [name, line] of table) await writeFile(path.join(dir, `${name}.jsonl`), line + '\n');
    const listingsAt = readme.indexOf('```jsonl', readme.indexOf('```jsonl') + 8);
    await writeFile(
      path.join(dir, 'Listing.jsonl'),
      readme.slice(listingsAt + 8, readme.indexOf('```', listingsAt + 8)).trim() + '\n',
    );
    const report = await importCatalog([dir], path.join(tmp, 'readme-out'));
    expect(report.problems).toEqual([]);
    expect(report.counts).toEqual({
      Venue: 1,
      Performer: 1,
      Event: 1,
      ZipEvent: 1,
      Banner: 1,
      Explore: 1,
      ZipEventDetermination: 1,
      USCity: 1,
      TSImage: 1,
      Listing: 1,
    });
  });
});
