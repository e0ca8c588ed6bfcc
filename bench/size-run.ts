import path from 'node:path';
import { hostilePaths } from '../server/test/hostile-input.js';
import { SITE_ID } from '../shared/rules/constants.js';
import { catalogOnDisk, performerNames } from './catalog-on-disk.js';
import { httpGet, rssMiB, rssSampler, startStorefront, stop } from './children.js';
import type { PageScore } from './lighthouse-pages.js';
import { drainer, measureRounds } from './load-rounds.js';
import {
  BURST_PATHS,
  BURST_SECONDS,
  COLD_POINTS,
  CONNECTIONS,
  HOME_CACHED,
  PERFORMER_NAMES,
  requestLists,
  scenarios as loadScenarios,
  SEQUENTIAL_REQUESTS,
  UNLIMITED,
  type RowKey,
} from './load-plan.js';
import { loadInChild, rotate, sequential, type LoadResult, type LoadSummary } from './load.js';
import { checkPages } from './page-checks.js';
import { lighthouseStorefront } from './storefront-lighthouse.js';

/** How often the server's memory is sampled. */
export const RSS_SAMPLE_MS = 500;
/** How long suggest is asked one request at a time, at most. */
const SEQUENTIAL_SECONDS = 10;
const STOP_GRACE_MS = 10_000;
/** Characters of a wrong answer shown in the error. */
const BODY_SHOWN = 300;

/** Everything measured against one server, over one catalog size. */
export interface ServerRun {
  events: number;
  generated: boolean;
  startupMs: number;
  rssReadyMiB: number;
  rssPeakMiB: number;
  rssEndMiB: number;
  hwmMiB: number;
  rows: { key: RowKey; label: string; result: LoadSummary }[];
  ceiling: LoadResult[];
  suggestOne: Awaited<ReturnType<typeof sequential>>;
  burst: { result: LoadResult; distinct: number; rssBeforeMiB: number; rssAfterMiB: number };
  cold: { distinct: number; degraded: number };
  /** Distinct requests in the lists of the cold runs (each round goes on where the last stopped). */
  coldLists: Partial<Record<RowKey, number>>;
  /** Runs after which the server went on working for over a second, in milliseconds. */
  drains: Record<string, number>;
  lighthouse?: PageScore[];
}

export interface SizeRunOptions {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  /** Lighthouse runs per page; none when absent. */
  lighthouseRuns?: number;
  log: (message: string) => void;
}

/**
 * One server over a catalog of `events` (generated into bench/out/data-N when not there yet): every endpoint in
 * rounds against the ceiling, suggest one request at a time, a hostile burst, and Lighthouse when asked.
 */
export async function benchSize(events: number, ceilingUrl: string, options: SizeRunOptions): Promise<ServerRun> {
  const { log } = options;
  const dataDir = path.resolve('bench/out', `data-${events}`);
  const generated = !(await catalogOnDisk(dataDir, events));
  log(
    `${events.toLocaleString('en-US')} events: starting the server` +
      `${generated ? ' (generating the catalog first)' : ''}`,
  );
  const { server, pid, ready } = startStorefront(events, {
    env: {
      RATE_LIMIT_SUGGEST_PER_MINUTE: UNLIMITED,
      RATE_LIMIT_SEARCH_PER_MINUTE: UNLIMITED,
      // Rendered event pages count against the listings limit, as the API's listings do.
      RATE_LIMIT_LISTINGS_PER_MINUTE: UNLIMITED,
      RATE_LIMIT_SESSIONS_PER_MINUTE: UNLIMITED,
    },
  });
  const sampler = rssSampler(pid, RSS_SAMPLE_MS);
  try {
    const { base, readyMs } = await ready;
    const startupMs = readyMs;
    const rssReadyMiB = rssMiB(pid);
    log(`ready in ${(startupMs / 1000).toFixed(1)} s, RSS ${rssReadyMiB.toFixed(0)} MiB`);

    const lists = requestLists(await performerNames(dataDir, PERFORMER_NAMES));
    for (const p of [HOME_CACHED, '/api/layout/category/nfl', lists.suggestPaths[0]!, lists.searchPaths[0]!]) {
      const r = await httpGet(base + p);
      if (r.status !== 200) throw new Error(`GET ${p} answered ${r.status}: ${r.body.slice(0, BODY_SHOWN)}`);
    }
    await checkPages(base, lists.checkPlace);
    const scenarios = loadScenarios(base, lists, await shopperHeaders(base));
    const { drains, drain } = drainer(pid, log);
    const { rows, ceiling, degraded } = await measureRounds({ ...options, scenarios, ceilingUrl, pid, drain });
    log('suggest, one request at a time…');
    const suggestOne = await sequential(base, rotate(lists.suggestPaths), {
      maxRequests: SEQUENTIAL_REQUESTS,
      seconds: SEQUENTIAL_SECONDS,
    });

    // The property battery's hostile GETs against this server, to see memory stay bounded after them too.
    log('hostile burst…');
    const rssBeforeBurstMiB = rssMiB(pid);
    const burstPaths = hostilePaths(BURST_PATHS);
    const burstResult = await loadInChild({
      url: base,
      connections: CONNECTIONS,
      seconds: BURST_SECONDS,
      warmupSeconds: 0,
      paths: burstPaths,
    });
    await drain('hostile burst');
    const burst = {
      result: burstResult,
      distinct: new Set(burstPaths).size,
      rssBeforeMiB: rssBeforeBurstMiB,
      rssAfterMiB: rssMiB(pid),
    };

    const rssEndMiB = rssMiB(pid);
    const hwmMiB = rssMiB(pid, 'VmHWM');
    const { peakMiB } = sampler.stop();

    const lighthouse = options.lighthouseRuns
      ? await lighthouseStorefront(base, options.lighthouseRuns, log)
      : undefined;
    return {
      events,
      generated,
      startupMs,
      rssReadyMiB,
      rssPeakMiB: peakMiB,
      rssEndMiB,
      hwmMiB,
      rows,
      ceiling,
      suggestOne,
      burst,
      cold: { distinct: COLD_POINTS, degraded },
      coldLists: Object.fromEntries(
        scenarios.filter((sc) => sc.cold && sc.paths).map((sc) => [sc.key, sc.paths!.length]),
      ),
      drains,
      ...(lighthouse ? { lighthouse } : {}),
    };
  } finally {
    sampler.stop();
    await stop(server, STOP_GRACE_MS);
  }
}

/**
 * What the storefront's own page sends: a guest token, the site and client ids, and the encodings a browser
 * accepts.
 */
export async function shopperHeaders(base: string): Promise<Record<string, string>> {
  const session = await fetch(`${base}/api/customers/session`, { method: 'POST' });
  if (session.status !== 201) throw new Error(`POST /api/customers/session answered ${session.status}`);
  const { sessionToken } = (await session.json()) as { sessionToken: string };
  return {
    authorization: `Bearer ${sessionToken}`,
    'x-site-id': String(SITE_ID),
    'x-client-id': 'storefront-web',
    'accept-encoding': 'gzip, deflate, br, zstd',
  };
}
