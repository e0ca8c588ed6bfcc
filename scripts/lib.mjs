// Shared by the `npm start`, `npm test` and `npm run dev` entry points. Plain Node, no dependencies: these
// run before `npm install` has.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const bin = (name) => path.join(root, 'node_modules', '.bin', name);

export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', (err) => {
      console.error(`could not run ${command}: ${err.message}`);
      resolve(127);
    });
  });
}

export async function must(command, args, options) {
  const code = await run(command, args, options);
  if (code !== 0) {
    console.error(`\n${command} ${args.join(' ')} failed (exit ${code})`);
    process.exit(code);
  }
}

/** Installs dependencies when node_modules is missing or older than the lock file. */
export async function ensureDependencies() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  const fresh = existsSync(marker) && (!existsSync(lock) || statSync(marker).mtimeMs >= statSync(lock).mtimeMs);
  if (fresh) return;
  console.log('Installing dependencies…');
  await must('npm', existsSync(lock) ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund']);
}

export async function build() {
  console.log('Building server and client…');
  await must(bin('tsc'), ['-p', 'tsconfig.build.json']);
  await must(bin('vite'), ['build', '--logLevel', 'warn']);
}
