// `npm start`: install what is missing, build, then serve. The server generates the catalog when the data
// directory has none.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { build, ensureDependencies, root } from './lib.mjs';

await ensureDependencies();
await build();
const server = spawn(process.execPath, [path.join(root, 'dist/server/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
