import path from 'node:path';
import { checkCatalogInvariants } from '../catalog/generate/check-catalog.js';
import { runGenerateCli } from './catalog-generate.js';
import { importCatalog, ImportInputError } from '../catalog/import-catalog.js';

/**
 * `npm run catalog -- …`: generates the demo catalog (the default), or with `import`, replaces collections of
 * the catalog with an operator's JSON Lines files.
 */
const IMPORT_USAGE = 'usage: npm run catalog -- import DIR|FILE… [--out DIR]   (files named Event.jsonl, Venue.jsonl…)';
/** Bad lines printed; the rest are counted. */
const PROBLEMS_SHOWN = 200;

async function runImportCli(args: string[]): Promise<number> {
  const outAt = args.indexOf('--out');
  const out = outAt >= 0 ? args[outAt + 1] : path.join(process.env.DATA_DIR ?? 'data', 'catalog');
  const inputs = outAt >= 0 ? [...args.slice(0, outAt), ...args.slice(outAt + 2)] : args;
  if (!out || inputs.some((a) => a.startsWith('--'))) {
    console.error(IMPORT_USAGE);
    return 2;
  }
  try {
    const began = performance.now();
    const report = await importCatalog(inputs, out);
    const seconds = (performance.now() - began) / 1000;
    for (const p of report.problems.slice(0, PROBLEMS_SHOWN)) console.error(`${p.file}:${p.line}: ${p.message}`);
    if (report.problems.length > PROBLEMS_SHOWN)
      console.error(`… and ${report.problems.length - PROBLEMS_SHOWN} more bad lines`);
    const read = Object.entries(report.counts)
      .map(([c, n]) => `${c} ${n}`)
      .join(', ');
    if (!report.applied) {
      console.error(
        `${report.problems.length} bad lines: nothing imported, ${path.resolve(out)} ` +
          `is unchanged (good lines: ${read})`,
      );
      return 1;
    }
    const total = Object.values(report.counts).reduce((a, b) => a + b, 0);
    console.log(
      `imported into ${path.resolve(out)} in ${seconds.toFixed(1)} s (${Math.round(total / seconds)} ` +
        `documents/s): ${read}`,
    );
    console.log('restart the storefront to serve it; change it while serving through the documents API (/api/admin)');
    return 0;
  } catch (err) {
    if (!(err instanceof ImportInputError)) throw err;
    console.error(err.message);
    console.error(IMPORT_USAGE);
    return 2;
  }
}

/** `npm run catalog -- check DIR`: streams a catalog and lists every broken invariant; exit 1 when there is one. */
async function runCheckCli(args: string[]): Promise<number> {
  const dir = args[0] ?? path.join(process.env.DATA_DIR ?? 'data', 'catalog');
  if (args.length > 1 || dir.startsWith('--')) {
    console.error('usage: npm run catalog -- check [DIR]');
    return 2;
  }
  const began = performance.now();
  const result = await checkCatalogInvariants(dir);
  const seconds = ((performance.now() - began) / 1000).toFixed(1);
  for (const v of result.violations) console.error(`${v.rule}: ${v.message}`);
  const broken = Object.entries(result.counts)
    .map(([rule, n]) => `${rule} ${n}`)
    .join(', ');
  console.log(
    `checked ${result.events} events (${result.leagueGames} league games) in ${seconds} ` +
      `s: ${broken || 'no violations'}`,
  );
  return broken ? 1 : 0;
}

const [command, ...rest] = process.argv.slice(2);
const run =
  command === 'import'
    ? runImportCli(rest)
    : command === 'check'
      ? runCheckCli(rest)
      : runGenerateCli(process.argv.slice(2));
run.then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
