import { existsSync } from 'node:fs';
import { start, stop } from './children.js';

/** How long `npm run build` may take. */
const BUILD_TIMEOUT_MS = 5 * 60_000;

/** Builds the app when dist/ lacks the server or the client; says which build the run measures. */
export async function ensureBuild(log: (message: string) => void): Promise<string> {
  if (existsSync('dist/server/main.js') && existsSync('dist/client/index.html')) return 'existing build';
  log('dist/ missing: npm run build');
  const child = start('npm', ['run', 'build']);
  const code = await Promise.race([
    child.exited,
    new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), BUILD_TIMEOUT_MS).unref()),
  ]);
  if (code !== 0) {
    await stop(child);
    throw new Error(`npm run build failed (${code}):\n${child.tail()}`);
  }
  return 'built by this run';
}
