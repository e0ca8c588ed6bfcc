// `npm run dev`: the API server with reload on change, and the Vite dev server proxying to it.
import { bin, ensureDependencies, run } from './lib.mjs';

await ensureDependencies();
const apiPort = process.env.PORT ?? '3000';
const env = { ...process.env, PORT: apiPort, API_PORT: apiPort };
const code = await Promise.race([
  run(bin('tsx'), ['watch', '--clear-screen=false', 'server/main.ts'], { env }),
  run(bin('vite'), [], { env }),
]);
process.exit(code);
