import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import v8 from 'node:v8';

/**
 * RULES 13.12: the JavaScript heap may grow a fifth past what it held after its last full collection. V8 left to
 * itself lets a busy heap grow up to fourfold before collecting it all (a load bench's server went from 230 MiB
 * held to 680 MiB of heap), and a process's memory is sized by its peak, not by what it holds.
 */
export const HEAP_GROWTH_PERCENT = 20;
/**
 * The least the heap may grow by, whatever it holds: a fifth of a small heap would have it collected whole every few
 * pages rendered.
 */
export const HEAP_GROWTH_LEAST_BYTES = 48 * 1024 * 1024;

/** The growth, in percent, for a heap holding `heldBytes`: `percent`, or more when that is under the least growth. */
export function heapGrowthPercent(percent: number, heldBytes: number): number {
  return Math.max(percent, Math.ceil((100 * HEAP_GROWTH_LEAST_BYTES) / Math.max(heldBytes, 1)));
}

/**
 * Sets how far the heap may grow past what it held after its last full collection (`percent`; 0 leaves V8's own
 * growing), worked out again after each full collection (`heapGrowthPercent`). Set once the catalog is loaded:
 * loading builds and drops a great deal, and collecting it as tightly would slow the start for no lasting gain.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent <= 0) return;
  let current = 0;
  const apply = () => {
    const growth = heapGrowthPercent(percent, v8.getHeapStatistics().used_heap_size);
    if (growth === current) return;
    current = growth;
    v8.setFlagsFromString(`--heap-growing-percent=${growth}`);
  };
  apply();
  const afterFullCollections = new PerformanceObserver((list) => {
    const entries = list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[];
    if (entries.some((entry) => entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) apply();
  });
  afterFullCollections.observe({ entryTypes: ['gc'] });
}
