/**
 * `npm run bench`: every benchmark in its own process (so memory figures do not mix), printed as Markdown
 * tables to paste into bench/RESULTS.md. `npm run bench -- --scale` adds the 1,000,000-event catalog.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { scale: { type: 'boolean', default: false } } });
const tsx = ['--import', 'tsx', '--expose-gc', '--max-old-space-size=8192'];

function run(script: string, args: string[]): Record<string, unknown>[] {
  const out = spawnSync(process.execPath, [...tsx, script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (out.status !== 0) throw new Error(`${script} failed with exit ${out.status}`);
  return out.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const sizes = values.scale ? ['20000', '1000000'] : ['20000'];
console.log(`# bench ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}\n`);

console.log('## Search latency (embedded engine, uncached)\n');
console.log('| events | load | index build | RSS | suggest median / p99 | suggest + extra sources median / p99 | row queries median / p99 |');
console.log('|---:|---:|---:|---:|---:|---:|---:|');
for (const r of sizes.flatMap((n) => run('bench/search-latency.ts', ['--events', n]))) {
  const t = (x: unknown) => {
    const s = x as { medianMs: number; p99Ms: number };
    return `${s.medianMs} / ${s.p99Ms} ms`;
  };
  console.log(`| ${r.events} | ${r.loadMs} ms | ${r.indexBuildMs} ms | ${r.rssMiB} MiB | ${t(r.suggest)} | ${t(r.suggestWithExtraSources)} | ${t(r.rows)} |`);
}

console.log('\n## Text index choice (same run, same data)\n');
console.log('| library | build | heap | prefix query median / p99 |');
console.log('|---|---:|---:|---:|');
for (const r of run('bench/text-index-choice.ts', ['--events', '20000'])) {
  console.log(`| ${r.engine} | ${r.buildMs} ms | ${r.heapMiB} MiB | ${r.medianMs} / ${r.p99Ms} ms |`);
}
