/**
 * Client build sizes, gzipped as served: `npx tsx bench/bundle-sizes.ts` after `npm run build`.
 * The home route loads index.html's entry chunk and stylesheet, and the app the entry starts (its dynamic import,
 * `client/src/boot.tsx`, once the first frame is drawn) with their imports; other pages add their lazy chunk, and
 * what the first screen starts only on demand (the experiment service as the search box opens, the place form)
 * is a chunk of its own, outside the figure.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dir = path.resolve('dist/client/assets');
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const rows = readdirSync(dir)
  .filter((f) => /\.(js|css)$/.test(f))
  .map((f) => {
    const raw = readFileSync(path.join(dir, f));
    return { file: f, raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
  })
  .sort((a, b) => b.gzip - a.gzip);
console.log('| file | raw | gzip |\n|---|---:|---:|');
for (const r of rows) console.log(`| ${r.file.replace(/-[A-Za-z0-9_-]{8}\./, '.')} | ${kb(r.raw)} | ${kb(r.gzip)} |`);
// The home route: index.html's entry script, every chunk it preloads, and the app it starts with its imports
// (read from Vite's manifest).
const html = readFileSync(path.resolve('dist/client/index.html'), 'utf8');
const homeFiles = new Set([...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]));
type Chunk = { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] };
const manifest = JSON.parse(readFileSync(path.resolve('dist/client/.vite/manifest.json'), 'utf8')) as Record<
  string,
  Chunk
>;
const add = (id: string) => {
  const chunk = manifest[id];
  if (!chunk || homeFiles.has(path.basename(chunk.file))) return;
  homeFiles.add(path.basename(chunk.file));
  for (const imported of chunk.imports ?? []) add(imported);
};
for (const chunk of Object.values(manifest).filter((c) => c.isEntry))
  for (const started of chunk.dynamicImports ?? []) add(started);
const home = rows.filter((r) => homeFiles.has(r.file)).reduce((n, r) => n + r.gzip, 0);
/** Issue 35's goal for the home route's JavaScript, gzipped. */
const HOME_GOAL_KB = 120;
const counted = rows
  .filter((r) => homeFiles.has(r.file))
  .map((r) => `${r.file.replace(/-[A-Za-z0-9_-]{8}\./, '.')} ${kb(r.gzip)}`);
console.log(`\nhome route JavaScript (gzip): ${kb(home)} (${counted.join(', ')})`);
console.log(`goal: at most ${HOME_GOAL_KB} KB: ${home <= HOME_GOAL_KB * 1024 ? 'met' : 'not met'}`);
// zod stays off the first screen: the answers the client fetches load their schemas with the fetch (`AnswerSchema`,
// client/src/lib/api.ts). zod names its classes (`$ZodType`), so the chunk that carries it is found by that name.
const zodFiles = rows.filter(
  (r) => r.file.endsWith('.js') && readFileSync(path.join(dir, r.file), 'utf8').includes('$ZodType'),
);
const zodHome = zodFiles.filter((r) => homeFiles.has(r.file));
console.log(
  `zod: in ${zodFiles.map((r) => r.file.replace(/-[A-Za-z0-9_-]{8}\./, '.')).join(', ') || 'no chunk'}; ` +
    `on the home route: ${zodHome.length > 0 ? 'yes' : 'no'}`,
);
