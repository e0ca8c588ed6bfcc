import { defineConfig } from 'vitest/config';
import LongestFirst from './server/test/sequencer.js';

export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'shared/**/*.test.ts', 'client/**/*.test.{ts,tsx}', 'bench/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['server/test/global-setup.ts'],
    setupFiles: ['client/src/test/dom-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at a time on two cores (the default keeps one core free, leaving a single worker): most files
    // wait on a database, a child process or a timer much of the time.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
  },
});
