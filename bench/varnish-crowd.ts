/**
 * The sale-day crowd through the shared cache: one storefront node (a generated catalog of 500 events, the shipped
 * home-layout experiment) with Varnish in front, configured as `npm run varnish` runs it, and 20,000 views of the
 * home page by 5,000 guests at 500 places in two variations, each view from a mail with its own `utm_content`, at
 * 200 connections. Prints the origin requests, the hit ratio and p50/p99 through Varnish, for bench/RESULTS.md.
 *
 *   node --import tsx bench/varnish-crowd.ts [--views 20000] [--guests 5000] [--places 500] [--connections 200]
 *
 * Needs varnishd with varnish-modules (apt-get install -y varnish varnish-modules); builds the app when dist/ is
 * missing or older than the sources.
 */
import { parseArgs } from 'node:util';
import { crowd, runCrowd, startCrowdStack } from '../server/test/varnish-crowd.js';
import { varnishdForTests } from '../server/test/varnish.js';
import { ensureBuild } from './ensure-build.js';

const { values } = parseArgs({
  options: {
    views: { type: 'string', default: '20000' },
    guests: { type: 'string', default: '5000' },
    places: { type: 'string', default: '500' },
    connections: { type: 'string', default: '200' },
  },
});
const [views, guests, placeCount, connections] = [values.views, values.guests, values.places, values.connections].map(
  Number,
) as [number, number, number, number];

const varnishd = varnishdForTests();
if (!varnishd) {
  console.error('varnishd with xkey not found: apt-get install -y --no-install-recommends varnish varnish-modules');
  process.exit(1);
}
console.log(`build: ${await ensureBuild(console.log, { sources: ['server', 'client', 'shared'] })}`);
const stack = await startCrowdStack({ varnishd });
try {
  const run = await runCrowd(stack, crowd(guests, placeCount), { views, connections });
  const pairs = placeCount * 2;
  console.log(`\n### Sale-day crowd through Varnish (${new Date().toISOString().slice(0, 10)})\n`);
  console.log(
    `| views | guests | places × variations | connections | origin requests | hit ratio | p50 | p99 | wrong pages |`,
  );
  console.log(`|---|---|---|---|---|---|---|---|---|`);
  console.log(
    `| ${views} | ${guests} | ${pairs} | ${connections} | ${run.backendRequests} | ` +
      `${(run.hitRatio * 100).toFixed(2)}% | ${run.p50.toFixed(2)} ms | ${run.p99.toFixed(2)} ms | ` +
      `${run.wrong.length} |`,
  );
  console.log(
    `\n${run.hits} hits, ${run.misses} misses, ${run.bodies} distinct pages, ` +
      `${(run.wallMs / 1000).toFixed(1)} s wall (${Math.round(views / (run.wallMs / 1000))} views/s); after every ` +
      `guest's first view: p50 ${run.warmP50.toFixed(2)} ms, p99 ${run.warmP99.toFixed(2)} ms`,
  );
} finally {
  await stack.stop();
}
