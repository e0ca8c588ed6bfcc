import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { start, stop } from './children.js';

/** How long `npm run build` may take. */
const BUILD_TIMEOUT_MS = 5 * 60_000;

/** A tracked file under `dirs` changed after the server was built (modification times), or undefined. */
function newerSource(dirs: readonly string[]): string | undefined {
  const builtAt = statSync('dist/server/main.js').mtimeMs;
  const files = execFileSync('git', ['ls-files', '-z', '--', ...dirs], { encoding: 'utf8' }).split('\0');
  return files.find((f) => f !== '' && existsSync(f) && statSync(f).mtimeMs > builtAt);
}

/**
 * Builds the app when dist/ lacks the server or the client, or (with `sources`) when a tracked file under those
 * folders is newer than the built server; says which build the run measures.
 */
export async function ensureBuild(
  log: (message: string) => void,
  options: { sources?: readonly string[] } = {},
): Promise<string> {
  const built = existsSync('dist/server/main.js') && existsSync('dist/client/index.html');
  const changed = built && options.sources ? newerSource(options.sources) : undefined;
  if (built && !changed) return 'existing build';
  log(changed ? `${changed} is newer than dist/: npm run build` : 'dist/ missing: npm run build');
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
