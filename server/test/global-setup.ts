import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder the test files of one run share what they make once (`openMigratedPglite`'s dumps). */
    sharedDir: string;
  }
}

/** Makes the run's shared folder, and removes it when the run ends. */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'storefront-vitest-'));
  project.provide('sharedDir', dir);
  return () => rm(dir, { recursive: true, force: true });
}
