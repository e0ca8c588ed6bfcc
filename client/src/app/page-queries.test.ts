// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { parsePlace } from '../../../shared/rules/location.js';
import { callPath } from '../../../shared/schemas/api-calls.js';
import { pageCookiesRead, readCookie, readPageCookies } from '../../../shared/schemas/page-render.js';
import { createQueryClient } from '../lib/query-client.js';
import { pageDataJson, readPageData, sameJson, seedPageAnswers } from './page-data.js';
import { unpackTables } from '../../../shared/schemas/page-data-tables.js';
import { pagePlan } from './page-queries.js';

/** The plan of a page as the server makes it: the shopper's place read off the request's cookies. */
const plan = (address: string, cookies = '') =>
  pagePlan(new URL(address, 'https://tickets.example.com'), parsePlace(readPageCookies(cookies).place));
const paths = (address: string, cookies = '') => {
  const p = plan(address, cookies);
  return (
    p && {
      kind: p.kind,
      shell: p.shell.map((q) => callPath(q.call)),
      own: p.own.map((q) => callPath(q.call)),
      module: p.module,
    }
  );
};

describe('what the server reads to render a page', () => {
  it('is what each page asks for, under the keys it asks with', () => {
    expect(paths('/')).toEqual({
      kind: 'home',
      // No menu: its links load when a panel first opens.
      shell: ['/api/brand'],
      own: ['/api/layout/home'],
      module: undefined,
    });
    // The tracking parameters never reach the layout call (RULES 2.10).
    expect(
      paths('/?home-layout=1&zip=10001&utm_source=mail&utm_content=r123&gclid=x&fbclid=y', 'shopperLocation=60601'),
    ).toMatchObject({ own: ['/api/layout/home?zip=60601&home-layout=1'] });
    expect(plan('/category/nfl/', 'shopperLocation=41.88,-87.63')!.own[0]!.queryKey).toEqual([
      'layout',
      '/api/layout/category/nfl',
      'lat=41.88&lng=-87.63',
      '',
    ]);
    expect(paths('/performers/new-york-mets-1051?page=2')).toMatchObject({
      kind: 'performer',
      own: ['/api/performers/new-york-mets-1051?page=2'],
      module: 'src/app/pages/entity-pages.tsx',
    });
    expect(paths('/new-york-mets-1051')).toMatchObject({
      kind: 'performer',
      own: ['/api/performers/new-york-mets-1051'],
    });
    expect(paths('/venues/msg-1')).toMatchObject({ kind: 'venue', own: ['/api/venues/msg-1'] });
    expect(paths('/results-general?kwds=taylor+swift&page=x')).toMatchObject({
      kind: 'results',
      own: ['/api/Searches/get?q=taylor%20swift&page=1'],
    });
    // An event page is bare (no header) and reads its listings as the listings panel filters them.
    expect(paths('/events/new-york/mets-at-cubs-42?quantity=4')).toEqual({
      kind: 'event',
      shell: ['/api/brand'],
      own: [
        '/api/events/mets-at-cubs-42',
        '/api/events/mets-at-cubs-42/listings',
        '/api/events/mets-at-cubs-42/listings?quantity=4&sort=price_asc',
      ],
      module: 'src/app/pages/event-page.tsx',
    });
    expect(paths('/faq')).toMatchObject({ kind: 'info', own: [] });
    expect(paths('/no/such/page')).toMatchObject({ kind: 'not-found', own: [] });
    for (const own of ['/tickets/mets-42', '/checkout/abc', '/orders/abc', '/studio'])
      expect(plan(own), own).toBeNull();
  });
});

describe('the cookies a rendered page depends on', () => {
  it('read a place as the pages use it, and nothing else', () => {
    expect(parsePlace('10001')).toEqual({ zip: '10001' });
    expect(parsePlace('41.88,-87.63')).toEqual({ lat: 41.88, lng: -87.63 });
    for (const bad of ['1000', '91,0', '0,181', 'abc', '', undefined, '10001;x'])
      expect(parsePlace(bad), String(bad)).toBeNull();
    expect(parsePlace(readPageCookies('a=1; shopperLocation=60601; b=2').place)).toEqual({ zip: '60601' });
    expect(readCookie('x=%E0%A4%A', 'x')).toBeUndefined();
  });

  it('are read by the pages said to read them, and by no other (RULES 13.7)', () => {
    const addresses = [
      '/',
      '/?home-layout=1',
      '/category/nfl',
      '/category/nfl/',
      '/performers/new-york-mets-1051',
      '/new-york-mets-1051',
      '/venues/msg-1',
      '/results-general?kwds=mets',
      '/events/new-york/mets-at-cubs-42?quantity=2',
      '/faq',
      '/no/such/page',
    ];
    for (const address of addresses) {
      const { pathname } = new URL(address, 'https://tickets.example.com');
      const calls = (cookies: string) => JSON.stringify(plan(address, cookies));
      expect(calls('shopperLocation=10001') !== calls('shopperLocation=41.88,-87.63'), address).toBe(
        pageCookiesRead(pathname).place,
      );
    }
    expect(pageCookiesRead('/')).toEqual({ place: true, homeLayout: true });
    expect(pageCookiesRead('/category/nfl')).toEqual({ place: true, homeLayout: false });
    expect(pageCookiesRead('/faq')).toEqual({ place: false, homeLayout: false });
  });

  it('are read in one pass, the first of a name counting as the browser reads it', () => {
    expect(readPageCookies('homeLayout=home-layout%3A1; guestToken=t; x=1; shopperLocation=10001')).toEqual({
      place: '10001',
      homeLayout: 'home-layout:1',
    });
    expect(readPageCookies('shopperLocation=%E0%A4%A; shopperLocation=10001')).toEqual({
      place: undefined,
      homeLayout: undefined,
    });
    const headers = ['', 'a=1; shopperLocation=60601; homeLayout=t; shopperLocation=1', 'noequals; homeLayout=x'];
    for (const header of headers)
      for (const name of ['shopperLocation', 'homeLayout'] as const)
        expect(readPageCookies(header)[name === 'shopperLocation' ? 'place' : 'homeLayout']).toBe(
          readCookie(header, name),
        );
  });
});

describe('the page data', () => {
  it('cannot end its script element early, and reads back whole', () => {
    const data = {
      answers: [{ key: ['results', '</script><!--'], data: { q: '</script>\u2028' } }],
      page: { origin: 'https://x', status: 200 },
    };
    const json = pageDataJson(data as never);
    expect(json).not.toMatch(/<\/script|<!--/);
    document.body.innerHTML = `<script type="application/json" id="page-data">${json}</script>`;
    expect(readPageData(document)).toEqual(data);
    document.body.innerHTML = '<script type="application/json" id="page-data">{broken</script>';
    expect(readPageData(document)).toBeNull();
  });

  it("carries each answer's key and data only, and seeds the browser's cache with them as fetched now", () => {
    const layout = { page: 'explore', rows: [{ id: 'trending', type: 'events', items: [{ id: 4 }] }] };
    const answers = [
      { key: ['brand'], data: { name: 'Tickets' } },
      { key: ['layout', '/api/layout/home', '', ''], data: layout },
    ];
    const json = pageDataJson({ answers, page: { origin: 'https://x', status: 200 } });
    expect(unpackTables(JSON.parse(json))).toEqual({ answers, page: { origin: 'https://x', status: 200 } });
    expect(json).not.toMatch(/dehydratedAt|dataUpdateCount|errorUpdatedAt|fetchFailureReason|queryHash|"success"/);

    document.body.innerHTML = `<script type="application/json" id="page-data">${json}</script>`;
    const browser = createQueryClient();
    seedPageAnswers(browser, readPageData(document)!.answers, 1_000);
    for (const { key, data } of answers) {
      expect(browser.getQueryData(key)).toEqual(data);
      expect(browser.getQueryState(key)).toMatchObject({ status: 'success', dataUpdatedAt: 1_000 });
    }
    // Fresh for the client's stale time from the moment it read the page, as a fetch then would be.
    seedPageAnswers(browser, readPageData(document)!.answers);
    const brand = browser.getQueryCache().find({ queryKey: ['brand'] })!;
    expect(brand.isStaleByTime(60_000)).toBe(false);
  });

  it('takes two cards for one when, and only when, they write the same JSON', () => {
    const values = [
      { id: 1, badges: [{ type: 'hot' }], minPrice: 2 },
      { id: 1, badges: [{ type: 'hot' }], minPrice: 3 },
      { minPrice: 2, id: 1, badges: [{ type: 'hot' }] },
      { id: 1, badges: [], minPrice: 2 },
      { id: 1, badges: {}, minPrice: 2 },
      [1, 2],
      [2, 1],
      { 0: 1, 1: 2 },
      null,
      '1',
      1,
    ];
    for (const a of values) {
      for (const b of values) expect(sameJson(a, b), `${JSON.stringify(a)} ${JSON.stringify(b)}`).toBe(a === b);
      expect(sameJson(a, structuredClone(a))).toBe(true);
    }
  });

  it('carries each card of an events row once and reads the row back as it was', () => {
    const card = (id: number) => ({ id, name: `Event ${id}`, badges: [], url: `/events/e-${id}`, minPrice: id });
    const tabbed = {
      id: 'local-events',
      type: 'events',
      items: [card(1), card(2)],
      defaultTab: 'week',
      tabs: [
        { id: 'all', title: 'All', items: [card(3), card(1)] },
        { id: 'week', title: 'Week', items: [card(1), card(2)] },
        { id: 'month', title: 'Month', items: [card(1), card(2), card(3)] },
      ],
    };
    // A row whose items are not its first tab's keeps them.
    const own = { ...tabbed, id: 'other', items: [card(9)] };
    const plain = { id: 'trending', type: 'events', items: [card(4)] };
    const layout = { page: 'explore', rows: [tabbed, own, plain] };
    const data = {
      answers: [{ key: ['layout', '/api/layout/home', '', ''], data: layout }],
      page: { origin: 'https://x', status: 200 },
    };
    const json = pageDataJson(data as never);
    // Each of the tabbed row's three events is written once; the other row's own item stays.
    expect(json.match(/"Event 1"/g)).toHaveLength(2);
    expect(json.match(/"Event 9"/g)).toHaveLength(1);
    document.body.innerHTML = `<script type="application/json" id="page-data">${json}</script>`;
    expect(readPageData(document)!.answers[0]!.data).toEqual(layout);
  });
});
