import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take the longest (a million-event catalog, the fault runs with PostgreSQL stopped and started, the
 * simulated experiment, several server processes): started first, so that no worker is left with one of them once
 * the others are done. Vitest orders by the last run's durations when it has them; a fresh checkout has none, and
 * its fallback (larger files first) would start the smallest of these last.
 */
const LONGEST_FIRST = [
  /catalog-1m\.test\.ts$/,
  /faults\.test\.ts$/,
  /simulation\.test\.ts$/,
  /multi-node\.test\.ts$/,
  /server\/main\.test\.ts$/,
  /server\/scripts\.test\.ts$/,
  /housekeeping\.test\.ts$/,
  /server\/cli\/[a-z-]+\.test\.ts$/,
];

const rank = (file: TestSpecification) => {
  const i = LONGEST_FIRST.findIndex((pattern) => pattern.test(file.moduleId));
  return i < 0 ? LONGEST_FIRST.length : i;
};

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // A stable sort: within a rank, Vitest's own order (the last run's durations, else the files' sizes).
    return sorted
      .map((file, i) => ({ file, i, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map((x) => x.file);
  }
}
