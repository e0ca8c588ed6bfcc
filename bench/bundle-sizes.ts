/**
 * Client build sizes, gzipped as served: `npx tsx bench/bundle-sizes.ts` after `npm run build`.
 * The home route loads index.html's entry chunk and stylesheet; other pages add their lazy chunk.
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
// The home route: index.html's entry script and every chunk it preloads.
const html = readFileSync(path.resolve('dist/client/index.html'), 'utf8');
const homeFiles = new Set([...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]));
const home = rows.filter((r) => homeFiles.has(r.file)).reduce((n, r) => n + r.gzip, 0);
console.log(`\nhome route JavaScript (gzip): ${kb(home)} of the 150 KB budget`);
