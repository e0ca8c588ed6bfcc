/**
 * The home page's size by place and variation (`node --import tsx bench/page-sizes.ts [--events N] [--places N]`):
 * one production server on bench/out/data-N (20,000 events unless said), then the home page as a browser asks for
 * it (no compression: the raw HTML) at eight large cities and `--places` cells spread over the continental US, in
 * the base rows (`/`) and the promos variation of the home-layout experiment (`/?home-layout=1`), each asked twice
 * and the second answer counted (the first may still be drawing rows). Prints the smallest, median and largest
 * page of each, the place of the largest, and how many are over the goal of 40,000 B.
 */
import { parseArgs } from 'node:util';
import { httpGet, startStorefront, stop } from './children.js';
import { usGridPoints } from './load.js';
import { PAGE_REQUEST_HEADERS } from './load-plan.js';
import { percentile } from './stats.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '20000' },
    places: { type: 'string', default: '52' },
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

async function main() {
  const { server, ready } = startStorefront(Number(values.events));
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
      console.log(
        `${variation.name} (${variation.path}), ${sizes.length} places: smallest ${bytes[0]} B, median ` +
          `${percentile(bytes, 50)} B, largest ${largest.bytes} B (${largest.place}); over ${GOAL_BYTES} B: ` +
          `${bytes.filter((b) => b > GOAL_BYTES).length}`,
      );
    }
  } finally {
    await stop(server, 20_000);
  }
}

await main();
