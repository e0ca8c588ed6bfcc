import { spawnSync } from 'node:child_process';

/** How long one size's engine benchmark may take. */
const ENGINE_TIMEOUT_MS = 20 * 60_000;

/** The engine benchmarks, each size in its own process so memory figures do not mix. */
export function engineBenchmarks(sizes: readonly number[]): string {
  const run = (script: string, args: string[]) => {
    const out = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--expose-gc', '--max-old-space-size=8192', script, ...args],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        timeout: ENGINE_TIMEOUT_MS,
      },
    );
    if (out.status !== 0) throw new Error(`${script} failed with exit ${out.status ?? out.signal}`);
    return out.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  };
  const t = (x: unknown) => {
    const s = x as { medianMs: number; p99Ms: number };
    return `${s.medianMs} / ${s.p99Ms} ms`;
  };
  const lines = [
    '## Search latency (embedded engine, uncached)\n',
    '| events | load | index build | RSS | suggest median / p99 | suggest + ' +
      'extra sources median / p99 | row queries median / p99 |',
    '|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const results = sizes.flatMap((events) => run('bench/search-latency.ts', ['--events', String(events)]));
  for (const r of results) {
    lines.push(
      `| ${r.events} | ${r.loadMs} ms | ${r.indexBuildMs} ms | ${r.rssMiB} MiB ` +
        `| ${t(r.suggest)} | ${t(r.suggestWithExtraSources)} | ${t(r.rows)} |`,
    );
  }
  lines.push(
    '\n## Row kinds: embedded engine against the scanning engine (same process, same requests, medians)\n',
    '| events | row kind | embedded | scanning | ratio |',
    '|---:|---|---:|---:|---:|',
  );
  for (const r of results) {
    for (const [kind, f] of Object.entries(
      r.rowsAgainstScanning as Record<string, { embeddedMs: number; scanningMs: number; ratio: number }>,
    )) {
      lines.push(`| ${r.events} | ${kind} | ${f.embeddedMs} ms | ${f.scanningMs} ms | ${f.ratio}× |`);
    }
  }
  return lines.join('\n');
}
