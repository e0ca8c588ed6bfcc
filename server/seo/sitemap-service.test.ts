import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDocument } from '../../shared/schemas/documents.js';
import { CachedEngine } from '../search/cached-engine.js';
import { EmbeddedEngine } from '../search/embedded/embedded-engine.js';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { CatalogTimes } from './catalog-times.js';
import { escapeXml, MAX_URLS_PER_SITEMAP, urlEntry, w3cDatetime } from './sitemap-protocol.js';
import { SitemapService } from './sitemap-service.js';
import { eventPath } from '../../shared/rules/site-paths.js';
import { childTexts, parseXml } from './xml-for-tests.js';

const ORIGIN = 'https://tickets.example.com';
const now = new Date();
const at = Math.floor(now.getTime() / 1000) + 7 * 86_400;

let fixture: CatalogFixture;
let events: EventDocument[];
let engine: CachedEngine;
let times: CatalogTimes;

beforeAll(async () => {
  fixture = await catalogFixture(100, 9);
  const template = fixture.catalog.collections.Event[0]!;
  // 700 events starting at one instant (more than two engine pages of them), then 300 at later times.
  events = Array.from({ length: 1_000 }, (_, i) => {
    const id = 5_000 + ((i * 7919) % 1_000);
    return {
      ...template,
      id: String(id),
      event_id: id,
      event_name: `Show ${id}`,
      event_status: 'scheduled',
      event_timestamp: i < 700 ? at : at + 60 * i,
    };
  }) as EventDocument[];
  engine = new CachedEngine(await EmbeddedEngine.build({ Event: events }));
  times = new CatalogTimes();
  await times.attach(fixture.catalog.manifest.generatedAt, async () => []);
}, 60_000);
afterAll(() => fixture?.cleanup());

const service = (urlsPerFile: number) =>
  new SitemapService({ engine: () => engine, times, categories: () => [], urlsPerFile, now: () => now });
const locsOf = (xml: string) => parseXml(xml).children.map((url) => childTexts(url, 'loc')[0]!);

describe('building event sitemap files', () => {
  it(
    'starts each file where the one before ended, even inside a run of events ' +
      'at one instant longer than an engine page',
    async () => {
      const sitemaps = service(300);
      const files: string[][] = [];
      for (let n = 1; n <= 4; n++) files.push(locsOf((await sitemaps.file(`events-${n}.xml`, ORIGIN))!.body));
      expect(files.map((f) => f.length)).toEqual([300, 300, 300, 100]);
      const inOrder = [...events].sort((a, b) => a.event_timestamp! - b.event_timestamp! || a.event_id - b.event_id);
      expect(files.flat()).toEqual(inOrder.map((e) => `${ORIGIN}${eventPath(e.event_name, e.event_id)}`));
      expect(await sitemaps.file('events-5.xml', ORIGIN)).toBeUndefined();
    },
  );

  it('leaves none of its page reads in the search result cache', async () => {
    const before = engine.cacheStats().entries;
    await service(250).file('events-3.xml', ORIGIN);
    expect(engine.cacheStats().entries).toBe(before);
  });

  it('keeps a built file until a change to its kind, and builds it anew after one', async () => {
    const sitemaps = service(300);
    const engineReads = () => engine.cacheStats().misses;
    const first = await sitemaps.file('events-1.xml', ORIGIN);
    const afterBuild = engineReads();
    expect(await sitemaps.file('events-1.xml', ORIGIN)).toEqual(first);
    sitemaps.catalogChanged([{ collection: 'Venue' }]);
    expect(await sitemaps.file('events-1.xml', ORIGIN)).toEqual(first);
    expect(engineReads()).toBe(afterBuild);
    sitemaps.catalogChanged([{ collection: 'Event' }]);
    expect(await sitemaps.file('events-1.xml', ORIGIN)).toEqual(first);
    expect(engineReads()).toBeGreaterThan(afterBuild);
  });

  it('builds a file once whatever origin it is asked on, and writes each answer in its own origin', async () => {
    const sitemaps = service(300);
    const here = await sitemaps.file('events-2.xml', ORIGIN);
    const reads = engine.cacheStats().misses;
    const there = await sitemaps.file('events-2.xml', 'http://localhost:3000');
    expect(engine.cacheStats().misses).toBe(reads);
    expect(there!.body).toBe(here!.body.replaceAll(ORIGIN, 'http://localhost:3000'));
    expect(there!.etag).not.toBe(here!.etag);
    expect(locsOf(there!.body).every((loc) => loc.startsWith('http://localhost:3000/events/'))).toBe(true);
  });

  it('splits one list as of one moment across files built minutes apart, and moves that moment on hourly', async () => {
    let clock = (at - 600) * 1000;
    const sitemaps = new SitemapService({
      engine: () => engine,
      times,
      categories: () => [],
      urlsPerFile: 300,
      now: () => new Date(clock),
    });
    const first = locsOf((await sitemaps.file('events-1.xml', ORIGIN))!.body);
    // Ten minutes on, the 700 events of one instant have started; the next file still continues the first.
    clock = (at + 1) * 1000;
    const second = locsOf((await sitemaps.file('events-2.xml', ORIGIN))!.body);
    const inOrder = [...events].sort((a, b) => a.event_timestamp! - b.event_timestamp! || a.event_id - b.event_id);
    expect([...first, ...second]).toEqual(
      inOrder.slice(0, 600).map((e) => `${ORIGIN}${eventPath(e.event_name, e.event_id)}`),
    );
    // An hour on, the files list what is upcoming then.
    clock = (at + 3_600) * 1000;
    const index = parseXml(await sitemaps.index(ORIGIN)).children.map((c) => childTexts(c, 'loc')[0]);
    expect(index).toEqual([`${ORIGIN}/sitemaps/events-1.xml`]);
    const later = inOrder.filter((e) => e.event_timestamp! >= at + 3_600);
    expect(locsOf((await sitemaps.file('events-1.xml', ORIGIN))!.body)).toEqual(
      later.map((e) => `${ORIGIN}${eventPath(e.event_name, e.event_id)}`),
    );
  });

  it('refuses a file size beyond the protocol’s 50,000 addresses', () => {
    expect(() => service(MAX_URLS_PER_SITEMAP + 1)).toThrow();
    expect(() => service(0)).toThrow();
  });
});

describe('the protocol’s text', () => {
  it('escapes the five XML entities and writes W3C datetimes in UTC to the second', () => {
    expect(escapeXml(`a&b<c>"d"'e'`)).toBe('a&amp;b&lt;c&gt;&quot;d&quot;&apos;e&apos;');
    expect(w3cDatetime(Date.UTC(2026, 10, 26, 4, 40, 5, 123))).toBe('2026-11-26T04:40:05Z');
    const entry = parseXml(
      `<?xml version="1.0" encoding="UTF-8"?><urlset>${urlEntry('https://x.example/?a=1&b=<2>', 0)}</urlset>`,
    );
    expect(childTexts(entry.children[0]!, 'loc')).toEqual(['https://x.example/?a=1&b=<2>']);
  });

  it('the test reader refuses XML that is not well formed', () => {
    const head = '<?xml version="1.0" encoding="UTF-8"?>';
    for (const bad of ['<a><b></a></b>', '<a>x & y</a>', '<a>', '<a></a><b></b>', '<a>1 < 2</a>', 'text<a></a>']) {
      expect(() => parseXml(`${head}${bad}`), bad).toThrow();
    }
    expect(parseXml(`${head}\n<a x="1"><b>t&amp;u</b></a>\n`).children[0]!.text).toBe('t&u');
  });
});
