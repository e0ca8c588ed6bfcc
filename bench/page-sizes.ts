/**
 * The home page's size by place and variation (`node --import tsx bench/page-sizes.ts [--events N] [--places N]
 * [--days D,D…]`): one production server on bench/out/data-N (20,000 events unless said), then the home page as a
 * browser asks for it (no compression: the raw HTML) at eight large cities and `--places` cells spread over the
 * continental US, in the base rows (`/`) and the promos variation of the home-layout experiment (`/?home-layout=1`),
 * each asked twice and the second answer counted (the first may still be drawing rows). Prints the smallest, median
 * and largest page of each, the place of the largest, and how many are over the goal of 40,000 B.
 *
 * A page's size moves with the days: its rows list the events of this week and this month. `--days 0,7,30` measures
 * today and as the storefront will draw its pages 7 and 30 days from now (a server each, its clock that far ahead,
 * bench/later-clock.mjs, on a copy of the data: a schedule gone stale by then is generated anew, as it would be),
 * then the largest page of all.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { httpGet, startStorefront, stop } from './children.js';
import { usGridPoints } from './load.js';
import { PAGE_REQUEST_HEADERS } from './load-plan.js';
import { percentile } from './stats.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '20000' },
    places: { type: 'string', default: '52' },
    days: { type: 'string', default: '0' },
  },
});

const GOAL_BYTES = 40_000;
const CITIES: [string, number, number][] = [
  ['New York', 40.71, -74.0],
  ['Los Angeles', 34.05, -118.24],
  ['Chicago', 41.88, -87.63],
  ['Houston', 29.76, -95.37],
  ['Seattle', 47.61, -122.33],
  ['Miami', 25.76, -80.19],
  ['Denver', 39.74, -104.99],
  ['Las Vegas', 36.17, -115.14],
];
const VARIATIONS = [
  { name: 'base rows', path: '/' },
  { name: 'promos variation', path: '/?home-layout=1' },
];

const DAYS = values.days.split(',').map((day) => {
  const n = Number(day);
  if (day.trim() === '' || !Number.isInteger(n) || n < 0) throw new Error(`--days lists whole days from now: ${day}`);
  return n;
});

type Largest = { place: string; bytes: number; variation: string; day: number };

/** The sizes on one day (`day` days from now): a line per variation, and the largest page of that day. */
async function measure(day: number): Promise<Largest> {
  // A later day runs on a copy of the data: a schedule more than 30 days old by the later clock is generated anew,
  // as the storefront would on that day, and the benchmarks' own catalog stays as it is.
  const events = Number(values.events);
  const own = path.resolve('bench/out', `data-${events}`);
  const later = day === 0 ? undefined : mkdtempSync(path.join(os.tmpdir(), `page-sizes-day${day}-`));
  try {
    if (later && existsSync(own)) cpSync(own, later, { recursive: true });
    return await sizesOn(day, events, later ?? own, later !== undefined);
  } finally {
    if (later) rmSync(later, { recursive: true, force: true });
  }
}

/** The sizes drawn from `dataDir`, by a server whose clock is `day` days ahead when `ahead`. */
async function sizesOn(day: number, events: number, dataDir: string, ahead: boolean): Promise<Largest> {
  const { server, ready } = startStorefront(
    events,
    ahead
      ? {
          nodeArgs: ['--import', path.resolve('bench/later-clock.mjs')],
          env: { BENCH_CLOCK_DAYS: String(day), DATA_DIR: dataDir },
        }
      : {},
  );
  let largestOfDay: Largest = { place: '', bytes: 0, variation: '', day };
  try {
    const { base } = await ready;
    const places = [
      ...CITIES,
      ...usGridPoints(Number(values.places)).map(([lat, lng]): [string, number, number] => [`${lat},${lng}`, lat, lng]),
    ];
    for (const variation of VARIATIONS) {
      const sizes: { place: string; bytes: number }[] = [];
      for (const [place, lat, lng] of places) {
        const headers = {
          ...PAGE_REQUEST_HEADERS,
          'accept-encoding': 'identity',
          cookie: `shopperLocation=${lat},${lng}`,
        };
        await httpGet(base + variation.path, 10_000, headers);
        const page = await httpGet(base + variation.path, 10_000, headers);
        if (page.status !== 200) throw new Error(`${variation.path} at ${place}: ${page.status}`);
        sizes.push({ place, bytes: Buffer.byteLength(page.body) });
      }
      const bytes = sizes.map((s) => s.bytes).sort((a, b) => a - b);
      const largest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
      if (largest.bytes > largestOfDay.bytes) largestOfDay = { ...largest, variation: variation.name, day };
      const when = DAYS.length > 1 ? `day +${day}: ` : '';
      console.log(
        `${when}${variation.name} (${variation.path}), ${sizes.length} places: smallest ${bytes[0]} B, median ` +
          `${percentile(bytes, 50)} B, largest ${largest.bytes} B (${largest.place}); over ${GOAL_BYTES} B: ` +
          `${bytes.filter((b) => b > GOAL_BYTES).length}`,
      );
    }
    const manifest = JSON.parse(readFileSync(path.join(dataDir, 'catalog', 'manifest.json'), 'utf8'));
    console.log(`${DAYS.length > 1 ? `day +${day}: ` : ''}the catalog's schedule starts ${manifest.start}`);
  } finally {
    await stop(server, 20_000);
  }
  return largestOfDay;
}

const largest: Largest[] = [];
for (const day of DAYS) largest.push(await measure(day));
if (DAYS.length > 1) {
  const top = largest.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  console.log(
    `largest over days ${DAYS.join(', ')}: ${top.bytes} B (${top.variation}, ${top.place}, day +${top.day}); ` +
      `${GOAL_BYTES - top.bytes} B under the goal`,
  );
}
