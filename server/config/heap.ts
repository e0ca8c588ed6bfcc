import v8 from 'node:v8';

/**
 * RULES 13.12: the JavaScript heap may grow a fifth past what it held after its last full collection. V8 left to
 * itself lets a busy heap grow up to fourfold before collecting it all (a load bench's server went from 230 MiB
 * held to 680 MiB of heap), and a process's memory is sized by its peak, not by what it holds.
 */
export const HEAP_GROWTH_PERCENT = 20;

/**
 * Sets how far the heap may grow past what it held after its last full collection (`percent`; 0 leaves V8's own
 * growing). Set once the catalog is loaded: loading builds and drops a great deal, and collecting it as tightly
 * would slow the start for no lasting gain.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
