import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchOptions } from './bench-options.js';
import { startCeiling, stop } from './children.js';
import { engineBenchmarks } from './engine-benchmarks.js';
import { ensureBuild } from './ensure-build.js';
import { n } from './format.js';
import { lighthouseDetails, lighthouseSection } from './lighthouse-report.js';
import { goalsSection, sizeSection } from './load-report.js';
import { CLIENT_WARMUP_SECONDS, CONNECTIONS, UNLIMITED } from './load-plan.js';
import { gitState, machineLine, replaceSection } from './results-file.js';
import { benchSize, type ServerRun } from './size-run.js';

const BUNDLE_SIZES_TIMEOUT_MS = 60_000;

/** The client build sizes as a Markdown table, or why they could not be measured. */
function bundleSizes(): string {
  const out = spawnSync(process.execPath, ['--import', 'tsx', 'bench/bundle-sizes.ts'], {
    encoding: 'utf8',
    timeout: BUNDLE_SIZES_TIMEOUT_MS,
  });
  if (out.status !== 0)
    return `bench/bundle-sizes.ts failed (${out.status ?? out.signal}): ${out.stderr.trim().split('\n')[0] ?? ''}`;
  return out.stdout.trim();
}

/** The run's header: when, which command, on what machine, against which build. */
function header(options: BenchOptions, startedAt: Date, loadAtStart: number, build: string, builtAt: string): string {
  return (
    `Date: ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC. ` +
    `Command: \`${options.command}\` (${((Date.now() - startedAt.getTime()) / 60_000).toFixed(1)} ` +
    `minutes). ` +
    `Machine: ${machineLine(loadAtStart)} (other work shares the machine); ` +
    `shared and noisy, so read the ratios, not lone times. ` +
    `Server: \`node dist/server/main.js\` (${build}, ${builtAt} UTC; ` +
    `${gitState(['server', 'client', 'shared', 'segments'])}), embedded ` +
    `search engine, PGlite store, \`NODE_ENV=production\`, ` +
    `\`LOG_LEVEL=warn\`, rate limits raised to ${n(Number(UNLIMITED))} a ` +
    `minute, \`SEGMENTS_WATCH=false\`.`
  );
}

/** How the endpoints are driven and measured. */
function method(options: BenchOptions): string {
  return (
    `Method: autocannon 9 drives each endpoint over 127.0.0.1 with ${CONNECTIONS} ` +
    `connections unless stated: ${options.warmupSeconds} s of warm-up per endpoint ` +
    `(discarded), then ${options.rounds} rounds of ${options.seconds} s, ` +
    'each round measuring the ceiling first and then every endpoint in turn, ' +
    'so a burst of other work on the machine weighs on the ceiling and the ' +
    'endpoints of the same round alike. ' +
    `Every run, the ceiling's too, has a load generator process of its own ` +
    `that first warms up on the same endpoint for ${CLIENT_WARMUP_SECONDS} s ` +
    `(discarded): in one long-lived generator, the endpoints measured before ` +
    `changed a later one's figures by nearly half. ` +
    `The server and the ceiling are separate child processes; on ${os.cpus().length} ` +
    `cores the load generator and the server each have about one. ` +
    "Latencies are autocannon's whole milliseconds and include queueing " +
    'behind the other connections; non-2xx answers are not in them.'
  );
}

/**
 * The load benchmark: the ceiling, then one server per catalog size (Lighthouse against the first), the client
 * build sizes; printed, and written into bench/RESULTS.md unless `--no-write`. Stops quietly when the run is
 * being stopped.
 */
export async function runLoadBench(
  options: BenchOptions,
  log: (message: string) => void,
  stopping: () => boolean,
): Promise<void> {
  const startedAt = new Date();
  const loadAtStart = os.loadavg()[0]!;
  const build = await ensureBuild(log);
  const builtAt = statSync('dist/server/main.js').mtime.toISOString().slice(0, 16).replace('T', ' ');
  const ceiling = await startCeiling();
  log(`ceiling at ${ceiling.url}`);
  const runs: ServerRun[] = [];
  const failures: string[] = [];
  for (const [i, events] of options.sizes.entries()) {
    try {
      const withLighthouse = i === 0 && !options.noLighthouse;
      runs.push(
        await benchSize(events, ceiling.url, {
          rounds: options.rounds,
          seconds: options.seconds,
          warmupSeconds: options.warmupSeconds,
          ...(withLighthouse ? { lighthouseRuns: options.lighthouseRuns } : {}),
          log,
        }),
      );
    } catch (err) {
      if (stopping()) return;
      const message = err instanceof Error ? err.message : String(err);
      log(`${events} events failed: ${message}`);
      failures.push(`- ${n(events)} events: could not measure: \`${message.split('\n')[0]}\``);
    }
  }
  await stop(ceiling.child);
  log('client build sizes…');
  const bundles = bundleSizes();

  const section = [
    '## Load: HTTP throughput, latency and memory of the real server',
    '',
    header(options, startedAt, loadAtStart, build, builtAt),
    '',
    method(options),
    '',
    ...runs.flatMap((r) => [sizeSection(r), '']),
    ...(failures.length ? ['Sizes that failed:', '', ...failures, ''] : []),
    goalsSection(runs),
    '',
    '### Client build sizes',
    '',
    'From `bench/bundle-sizes.ts` over `dist/client` (gzip level 9):',
    '',
    bundles,
    '',
    lighthouseSection(runs[0]?.lighthouse, runs[0]?.events, options.noLighthouse, options.lighthouseRuns),
  ].join('\n');

  console.log(section);
  const details = lighthouseDetails(runs[0]?.lighthouse);
  if (details) console.log(`\n${details}`);
  if (options.engine) console.log(`\n${engineBenchmarks(options.sizes)}`);
  if (!options.noWrite) {
    const file = path.resolve('bench/RESULTS.md');
    writeFileSync(file, replaceSection(readFileSync(file, 'utf8'), section));
    log('bench/RESULTS.md updated');
  }
  if (failures.length) process.exitCode = 1;
}
