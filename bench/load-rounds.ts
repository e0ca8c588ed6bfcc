import { settle, SETTLE_MAX_MS } from './children.js';
import { CLIENT_WARMUP_SECONDS, CONNECTIONS, type RowKey, type Scenario } from './load-plan.js';
import { loadInChild, summarize, type LoadResult, type LoadSummary } from './load.js';

/** A wait for the server to go idle longer than this is reported. */
const REPORTED_DRAIN_MS = 1_000;

/**
 * Requests still queued when autocannon stops go on being answered to nobody: `drain` waits them out, and
 * `drains` keeps, per run, the longest wait over a second (in milliseconds).
 */
export function drainer(pid: number, log: (message: string) => void) {
  const drains: Record<string, number> = {};
  const drain = async (label: string) => {
    const t = await settle(pid, SETTLE_MAX_MS);
    if (t > REPORTED_DRAIN_MS) drains[label] = Math.max(drains[label] ?? 0, t);
    if (t >= SETTLE_MAX_MS) log(`${label}: server still busy after ${SETTLE_MAX_MS / 1000} s; going on`);
  };
  return { drains, drain };
}

export interface RoundsOptions {
  scenarios: Scenario[];
  ceilingUrl: string;
  /** The server's process, waited on to go idle between runs. */
  pid: number;
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  drain: (label: string) => Promise<void>;
  log: (message: string) => void;
}

/**
 * A discarded warm-up per endpoint, then rounds that each measure the ceiling and every endpoint in turn; each
 * endpoint's row summarizes its rounds against the ceiling of the same round.
 */
export async function measureRounds(options: RoundsOptions): Promise<{
  rows: { key: RowKey; label: string; result: LoadSummary }[];
  ceiling: LoadResult[];
  /** Cold home layouts answered with a row marked `timeout` or `error`. */
  degraded: number;
}> {
  const { scenarios, pid, rounds, seconds, warmupSeconds, drain, log } = options;
  let degraded = 0;
  const ceilingScenario = { url: options.ceilingUrl, connections: CONNECTIONS };
  if (warmupSeconds > 0) {
    log(`warm-up, ${warmupSeconds} s per endpoint…`);
    for (const sc of scenarios) {
      const { key: _key, label: _label, cold: _cold, warmupPaths, ...rest } = sc;
      await loadInChild({
        ...rest,
        ...(warmupPaths ? { paths: warmupPaths } : {}),
        seconds: warmupSeconds,
        warmupSeconds: 0,
      });
      await settle(pid, SETTLE_MAX_MS);
    }
  }
  const ceiling: LoadResult[] = [];
  const measured = new Map<RowKey, LoadResult[]>(scenarios.map((sc) => [sc.key, []]));
  // Requests of each cold run already sent: each round goes on where the last stopped.
  const cursors = new Map<RowKey, number>();
  for (let round = 1; round <= rounds; round++) {
    log(`round ${round} of ${rounds}: ceiling, then ${scenarios.map((sc) => sc.key).join(', ')}…`);
    ceiling.push(await loadInChild({ ...ceilingScenario, seconds, warmupSeconds: CLIENT_WARMUP_SECONDS }));
    for (const sc of scenarios) {
      const { key, label: _label, cold, ...loadOptions } = sc;
      const cursor = cursors.get(key) ?? 0;
      const paths =
        cold && loadOptions.paths
          ? [...loadOptions.paths.slice(cursor), ...loadOptions.paths.slice(0, cursor)]
          : loadOptions.paths;
      const result = await loadInChild({
        ...loadOptions,
        ...(paths ? { paths } : {}),
        seconds,
        warmupSeconds: CLIENT_WARMUP_SECONDS,
        settlePid: pid,
      });
      if (cold && loadOptions.paths) cursors.set(key, (cursor + result.sent) % loadOptions.paths.length);
      if (key === 'homeCold') degraded += result.matched;
      measured.get(key)!.push(result);
      await drain(sc.label);
    }
  }
  const rows = scenarios.map((sc) => ({
    key: sc.key,
    label: sc.label,
    result: summarize(measured.get(sc.key)!, ceiling),
  }));
  return { rows, ceiling, degraded };
}
