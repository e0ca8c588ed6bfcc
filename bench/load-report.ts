import { CEILING_BODY, SETTLE_MAX_MS } from './children.js';
import { mib, ms, n, pct, yes } from './format.js';
import { BURST_SECONDS, COLD_WARMUP_POINTS, CONNECTIONS, HIGH_CONNECTIONS, type RowKey } from './load-plan.js';
import { summarize, type LoadSummary } from './load.js';
import { RSS_SAMPLE_MS, type ServerRun } from './size-run.js';

/** The goals of the load runs: the cached home layout's share of the ceiling, and suggest's p99 at one size. */
const CACHED_SHARE_OF_CEILING = 0.4;
const SUGGEST_P99_MS = 10;
const SUGGEST_GOAL_EVENTS = 20_000;

const pick = (r: ServerRun, key: RowKey) => r.rows.find((x) => x.key === key)!.result;

const ceilingMedian = (r: ServerRun) => summarize(r.ceiling, r.ceiling).rps;

/** A share of `total` in whole percents. */
const percentOf = (part: number, total: number) => ((100 * part) / total).toFixed(0);

/** The mean wait when every connection is always waiting, in seconds. */
const meanWait = (x: LoadSummary) => (x.connections / x.rps).toFixed(1);

/** What the server-rendered home page rows measured, next to the home layout API. */
function pageNote(r: ServerRun): string {
  const cached = pick(r, 'pageCached');
  const shopper = pick(r, 'homeShopper');
  const served = (key: RowKey, what: string) => {
    const x = pick(r, key);
    const distinct = r.coldLists[key] ?? 0;
    const repeats = Math.max(0, x.requests - distinct);
    return (
      `${what}: ${n(x.requests)} answers over ${n(distinct)} ${key === 'pageColdPlace' ? 'places' : 'addresses'}` +
      (repeats
        ? `, so ${n(repeats)} (${percentOf(repeats, x.requests)}%) asked ` + `for a page already rendered in this run`
        : ', each one a page the cache did not hold') +
      `, ${n(x.unanswered)} more still waiting when their round ended` +
      (x.rps > 0 ? ` (mean wait about connections ÷ req/s = ${meanWait(x)} s)` : '')
    );
  };
  return (
    'Server-rendered home page rows: asked as a browser asks (`Accept: ' +
    'text/html`, `Accept-Encoding: gzip, deflate, br, zstd`), so their bytes ' +
    'per response are compressed ones, headers included; ' +
    `each was checked before measuring (200 \`text/html\` with ` +
    `\`id="page-data"\`, a repeat of \`/\` replayed with an ETag, a cookie's ` +
    `place reaching the layout). ` +
    `The cached page answered ${n(cached.rps)} req/s, ${pct(cached.rps / shopper.rps)} ` +
    `of the cached home layout API asked with the same encodings in the same ` +
    `run (${n(shopper.rps)} req/s). ` +
    `${served('pageCold', 'Rendered on each request')}. ${served('pageColdPlace', 'Fully cold')}.`
  );
}

/** One row of the endpoint table. */
function tableRow(label: string, x: LoadSummary, ofCeiling: string): string {
  const notOk = Object.entries(x.statusCodes)
    .filter(([c]) => !c.startsWith('2'))
    .map(([c, k]) => `${c}×${k}`)
    .join(', ');
  return (
    `| ${label} | ${x.connections} | ${n(x.rps)} | ${ofCeiling} | ${x.p50Ms} ` +
    `| ${x.p99Ms} (${x.worstP99Ms}) | ${Number.isFinite(x.bytesPerResponse) ? n(x.bytesPerResponse) : '—'} ` +
    `| ${n(x.requests)} | ${x.errors}${x.timeouts ? ` (${x.timeouts} timeouts)` : ''} ` +
    `| ${x.non2xx}${x.non2xx ? ` (${notOk})` : ''} ` +
    `|`
  );
}

/** How the rounds are summarized, and what the cold home layout run asked for. */
function coldNote(r: ServerRun): string {
  const cold = pick(r, 'homeCold');
  const repeats = Math.max(0, cold.requests - r.cold.distinct);
  return (
    `req/s, p50 and p99 are medians over the ${r.ceiling.length} rounds; "of ` +
    `the ceiling" is the median over rounds of req/s divided by the ceiling's ` +
    `req/s in the same round ` +
    `(ceiling per round: ${r.ceiling.map((c) => n(c.rps)).join(', ')} req/s). ` +
    `Cold home layout: ${n(cold.requests)} answers over ${n(r.cold.distinct)} ` +
    `cells (the warm-up used another ${n(COLD_WARMUP_POINTS)})` +
    (repeats
      ? `, so ${n(repeats)} requests ` +
        `(${percentOf(repeats, cold.requests)}%) came back to a cell ` +
        `already resolved in this run`
      : ', each one a row-cache miss') +
    `; ${n(r.cold.degraded)} of them answered 200 with a row marked \`timeout\` or \`error\`. ` +
    `Its latency columns count answered requests only: ${n(cold.unanswered)} ` +
    `more were still waiting when their round ended; ` +
    `with every connection always waiting, the mean wait is about connections ` +
    `÷ req/s = ${meanWait(cold)} s.`
  );
}

function suggestNote(r: ServerRun): string {
  return (
    `Suggest, one request at a time over one kept-alive connection (timed in ` +
    `the runner to the microsecond; answers cached after their first ` +
    `request): ` +
    `median ${ms(r.suggestOne.p50Ms)} ms, p99 ${ms(r.suggestOne.p99Ms)} ms ` +
    `over ${n(r.suggestOne.requests)} requests, ${r.suggestOne.failures} ` +
    `failures.`
  );
}

function burstNote(r: ServerRun): string {
  const b = r.burst.result;
  const fiveXX = Object.entries(b.statusCodes)
    .filter(([code]) => code.startsWith('5'))
    .reduce((sum, [, k]) => sum + k, 0);
  const statuses = Object.entries(b.statusCodes)
    .sort()
    .map(([code, k]) => `${code}×${n(k)}`)
    .join(', ');
  return (
    `Hostile burst (the property battery's generators, ` +
    `\`server/test/hostile-input.ts\`, seed 1): ${n(b.requests)} GETs over ${n(r.burst.distinct)} ` +
    `distinct hostile URLs in ${BURST_SECONDS} s at ${CONNECTIONS} ` +
    `connections, ` +
    `${n(b.rps)} req/s; status codes ${statuses}; ${fiveXX} answers 5xx, ${b.errors} errors, ${b.timeouts} timeouts. ` +
    `Server RSS ${mib(r.burst.rssBeforeMiB)} before it and ${mib(r.burst.rssAfterMiB)} ` +
    `after (the caches are bounded by size: rows, answers, fast lane, ` +
    `results).`
  );
}

/** The runs after which the server went on working, with the longest wait; none when it never did. */
function drainNote(r: ServerRun): string | undefined {
  const drains = Object.entries(r.drains);
  if (!drains.length) return undefined;
  const wait = ([label, t]: [string, number]) =>
    `${label.replace(/ \(.*$/, '')} ${(t / 1000).toFixed(1)} s` +
    (t >= SETTLE_MAX_MS ? ' (gave up waiting: later runs share the server with that backlog)' : '');
  return (
    'Still busy after autocannon stopped (answering requests whose client had ' +
    'gone; the runner waits for the server to go idle before the next run), ' +
    'longest wait: ' +
    drains.map(wait).join(', ') +
    '.'
  );
}

/** One catalog size: start-up and memory, the endpoint table, and notes on the cold, page, suggest and burst runs. */
export function sizeSection(r: ServerRun): string {
  const lines = [
    `### ${n(r.events)} events`,
    '',
    `Start-up to \`/readyz\` 200: ${(r.startupMs / 1000).toFixed(1)} s ` +
      `(${r.generated ? 'catalog generated first' : 'catalog already on disk'}). ` +
      `Server RSS: ${mib(r.rssReadyMiB)} when ready, ${mib(r.rssPeakMiB)} peak ` +
      `(sampled every ${RSS_SAMPLE_MS} ms from spawn; kernel high-water mark ` +
      `${mib(r.hwmMiB)}), ${mib(r.rssEndMiB)} at the end.`,
    '',
    '| endpoint | connections | req/s | of the ceiling | p50 ms | p99 ms ' +
      '(worst round) | bytes per response | requests | errors | non-2xx |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    tableRow(
      `ceiling: bare \`node:http\`, fixed ${CEILING_BODY.length}-byte JSON`,
      summarize(r.ceiling, r.ceiling),
      '—',
    ),
    ...r.rows.map((x) => tableRow(x.label, x.result, pct(x.result.ofCeiling))),
    '',
    coldNote(r),
    '',
    pageNote(r),
    '',
    suggestNote(r),
    '',
    burstNote(r),
  ];
  const drains = drainNote(r);
  if (drains) lines.push('', drains);
  return lines.join('\n');
}

/** The goals table over every size. */
export function goalsSection(runs: ServerRun[]): string {
  const lines = ['### Goals', '', '| goal | measured | |', '|---|---|---|'];
  const share = pct(CACHED_SHARE_OF_CEILING);
  for (const r of runs) {
    const cached = pick(r, 'homeCached');
    const high = pick(r, 'homeCached200');
    const suggest = pick(r, 'suggest');
    const shopper = pick(r, 'homeShopper');
    const cachedOk = cached.ofCeiling >= CACHED_SHARE_OF_CEILING;
    lines.push(
      `| cached home layout ≥ ${share} of the ceiling (${n(r.events)} events) | ${pct(cached.ofCeiling)} ` +
        `(${n(cached.rps)} against ${n(ceilingMedian(r))} req/s) | ${yes(cachedOk)} ` +
        `|`,
      `| the same, as the storefront asks for it (token, ids, compressed) | ${pct(shopper.ofCeiling)} ` +
        `(${n(shopper.rps)} req/s) | ${yes(shopper.ofCeiling >= CACHED_SHARE_OF_CEILING)} |`,
    );
    if (r.events === SUGGEST_GOAL_EVENTS) {
      const goal = `suggest p99 < ${SUGGEST_P99_MS} ms at ${n(SUGGEST_GOAL_EVENTS)} events`;
      const manyOk = suggest.p99Ms < SUGGEST_P99_MS;
      const oneOk = r.suggestOne.p99Ms < SUGGEST_P99_MS && r.suggestOne.failures === 0;
      lines.push(
        `| ${goal}, ${CONNECTIONS} connections | p99 ${suggest.p99Ms} ` +
          `ms (worst round ${suggest.worstP99Ms} ms; p50 ${suggest.p50Ms} ms) | ${yes(manyOk)} ` +
          `|`,
        `| ${goal}, one shopper (1 connection) | p99 ` +
          `${ms(r.suggestOne.p99Ms)} ms (p50 ${ms(r.suggestOne.p50Ms)} ms) | ${yes(oneOk)} ` +
          `|`,
      );
    }
    lines.push(
      `| no request errors at ${HIGH_CONNECTIONS} concurrent connections, ` +
        `cached home (${n(r.events)} events) | ${high.errors} errors, ${high.timeouts} ` +
        `timeouts, ${high.non2xx} non-2xx of ${n(high.requests)} | ${yes(high.errors === 0 && high.non2xx === 0)} ` +
        `|`,
    );
  }
  return lines.join('\n');
}
