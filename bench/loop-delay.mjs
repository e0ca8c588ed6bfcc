// Preloaded into the server by bench/cold.ts (node --import): the event loop's delay histogram, written
// to BENCH_LOOP_FILE and reset on SIGUSR2, so the bench reads the delay over exactly the run it measured.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
process.on('SIGUSR2', () => {
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  writeFileSync(
    process.env.BENCH_LOOP_FILE,
    JSON.stringify({
      p50Ms: ms(histogram.percentile(50)),
      p99Ms: ms(histogram.percentile(99)),
      maxMs: ms(histogram.max),
    }),
  );
  histogram.reset();
});
