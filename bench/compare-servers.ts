/**
 * Two storefront servers side by side (an older checkout against this one, on the same catalog): the sizes of the
 * listings answer and the event page, their sequential medians (the server that goes first alternating by round),
 * first renders of event pages neither server has drawn, and the listings API's throughput at 50 connections.
 * Prints JSON; the medians and ratios go into bench/RESULTS.md by hand.
 *
 *   node --import tsx bench/compare-servers.ts --old http://127.0.0.1:4342 --new http://127.0.0.1:4341 \
 *     --catalog <DATA_DIR>/catalog [--events 20] [--first-renders 150]
 *
 * Start each server from its own checkout (`npm run build`, then `node dist/server/main.js`) with its own DATA_DIR
 * holding a copy of the same `catalog` folder, and every `RATE_LIMIT_*` high enough not to count.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { entitySlug } from '../shared/rules/slug.js';
import { percentile } from './stats.js';

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

const { values } = parseArgs({
  options: {
    old: { type: 'string' },
    new: { type: 'string' },
    catalog: { type: 'string' },
    events: { type: 'string', default: '20' },
    'first-renders': { type: 'string', default: '150' },
  },
});
if (!values.old || !values.new || !values.catalog) {
  console.error('usage: compare-servers --old URL --new URL --catalog DIR [--events N] [--first-renders N]');
  process.exit(2);
}
const servers = { old: values.old, new: values.new } as const;
type Side = keyof typeof servers;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

interface Answer {
  status: number;
  body: Buffer;
  ms: number;
}

function get(base: string, target: string, encoding: 'gzip' | 'identity'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    http
      .get(base + target, { agent, headers: { 'accept-encoding': encoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          }),
        );
      })
      .on('error', reject);
  });
}

const events = readFileSync(path.join(values.catalog, 'Event.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as { event_id: number; event_name: string });
const slugOf = (e: { event_id: number; event_name: string }) => entitySlug(e.event_name, e.event_id);
const kinds = {
  listings: (slug: string) => `/api/events/${slug}/listings?quantity=2`,
  page: (slug: string) => `/events/${slug}`,
};
const orderOf = (round: number): Side[] => (round % 2 ? ['new', 'old'] : ['old', 'new']);

// Events spread over the catalog that both servers sell tickets for.
const slugs: string[] = [];
const stride = Math.max(1, Math.floor(events.length / 20));
for (let k = 0; slugs.length < Number(values.events) && k < events.length; k += stride) {
  const slug = slugOf(events[k]!);
  const [a, b] = await Promise.all([
    get(servers.new, kinds.listings(slug), 'identity'),
    get(servers.old, kinds.listings(slug), 'identity'),
  ]);
  if (a.status === 200 && b.status === 200 && (JSON.parse(a.body.toString()) as { listings: [] }).listings.length > 0)
    slugs.push(slug);
}

const result: Record<string, unknown> = { events: slugs.length };

// Sizes: raw, and as the server sends them gzipped.
for (const [kind, target] of Object.entries(kinds)) {
  for (const side of ['old', 'new'] as const) {
    const raw: number[] = [];
    const gzip: number[] = [];
    for (const slug of slugs) {
      raw.push((await get(servers[side], target(slug), 'identity')).body.length);
      gzip.push((await get(servers[side], target(slug), 'gzip')).body.length);
    }
    result[`${kind} bytes ${side}`] = { raw: median(raw), gzip: median(gzip) };
  }
}

// Sequential medians: two warm-up passes, then 10 rounds of every event per server.
for (const [kind, target] of Object.entries(kinds)) {
  for (const side of ['old', 'new'] as const)
    for (let pass = 0; pass < 2; pass++) for (const slug of slugs) await get(servers[side], target(slug), 'gzip');
  const times: Record<Side, number[]> = { old: [], new: [] };
  for (let round = 0; round < 10; round++)
    for (const side of orderOf(round))
      for (const slug of slugs) times[side].push((await get(servers[side], target(slug), 'gzip')).ms);
  result[`${kind} sequential ms`] = { old: median(times.old), new: median(times.new) };
}

// First renders: event pages neither server has drawn, each asked once of both.
{
  const times: Record<Side, number[]> = { old: [], new: [] };
  for (let k = 13; times.old.length < Number(values['first-renders']) && k < events.length; k += 113) {
    const slug = slugOf(events[k]!);
    if (slugs.includes(slug)) continue;
    const answers: Partial<Record<Side, Answer>> = {};
    for (const side of orderOf(times.old.length)) answers[side] = await get(servers[side], kinds.page(slug), 'gzip');
    if (answers.old?.status !== 200 || answers.new?.status !== 200) continue;
    times.old.push(answers.old.ms);
    times.new.push(answers.new.ms);
  }
  result['first render ms'] = { old: median(times.old), new: median(times.new), pages: times.old.length };
}

// Throughput: the listings API over the events, 50 connections, one warm-up round each, then 3 rounds alternating.
const cannon = (base: string) =>
  autocannon({
    url: base,
    connections: 50,
    duration: 5,
    headers: { 'accept-encoding': 'gzip' },
    requests: slugs.map((slug) => ({ method: 'GET' as const, path: kinds.listings(slug) })),
  });
for (const side of ['old', 'new'] as const) await cannon(servers[side]);
const rps: Record<Side, number[]> = { old: [], new: [] };
for (let round = 0; round < 3; round++)
  for (const side of orderOf(round)) rps[side].push((await cannon(servers[side])).requests.average);
result['listings requests/s at 50 connections'] = rps;

agent.destroy();
console.log(JSON.stringify(result, null, 2));
