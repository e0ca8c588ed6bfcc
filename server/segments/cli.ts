import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { parseEnv } from '../config/env.js';
import { LayoutService, type PageRequest } from '../layout/layout-service.js';
import { resolveLocation } from '../layout/location.js';
import { openCatalog } from '../search/create-engine.js';
import { renderJsonSchema, segmentJsonSchemas } from './json-schema.js';
import { SegmentRepository } from './segment-repository.js';

const USAGE = `usage:
  npm run segments -- check                                   validate every brand's files
  npm run segments -- preview --brand B --page P [--zip Z | --lat L --lng G]
                                                              resolve a page's rows (P: home, or a category slug)
  npm run segments -- explain --brand B --page P              which file and override made each row
  npm run segments -- schema [--check]                        write (or check) schemas/json/`;

export const SCHEMA_DIR = path.resolve('schemas/json');

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      brand: { type: 'string' },
      page: { type: 'string' },
      zip: { type: 'string' },
      lat: { type: 'string' },
      lng: { type: 'string' },
      check: { type: 'boolean', default: false },
    },
  });
  const env = parseEnv({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' });
  const logger = pino({ level: env.LOG_LEVEL });
  const segments = new SegmentRepository(env.segmentsDir);
  switch (positionals[0]) {
    case 'check': {
      await segments.load();
      const { problems } = segments.status();
      for (const p of problems) console.log(`${p.file}: ${p.path || '(file)'}: ${p.message}`);
      console.log(problems.length ? `${problems.length} problem(s)` : `all segment files are valid (${env.segmentsDir})`);
      return problems.length ? 1 : 0;
    }
    case 'schema': {
      let stale = 0;
      await mkdir(SCHEMA_DIR, { recursive: true });
      for (const [file, schema] of Object.entries(segmentJsonSchemas())) {
        const target = path.join(SCHEMA_DIR, file);
        const text = renderJsonSchema(schema);
        const current = await readFile(target, 'utf8').catch(() => '');
        if (current === text) continue;
        if (values.check) {
          console.log(`${path.relative('.', target)} is out of date: run npm run segments -- schema`);
          stale++;
        } else {
          await writeFile(target, text);
          console.log(`wrote ${path.relative('.', target)}`);
        }
      }
      return stale ? 1 : 0;
    }
    case 'explain': {
      await segments.load();
      const { brand, pageName } = pageArgs(values.brand, values.page, segments);
      const page = segments.page(brand, pageName);
      if (!page) throw new Error(`brand ${brand} has no ${pageName} page`);
      console.log(`${brand} / ${pageName}: "${page.title}"`);
      page.origins.forEach((o, i) => console.log(`  ${String(i + 1).padStart(2)}. ${o.id.padEnd(32)} ${o.via.padEnd(12)} ${o.file}`));
      return 0;
    }
    case 'preview': {
      await segments.load();
      const brand = segments.brand(values.brand ?? segments.defaultBrand.id);
      if (!brand) throw new Error(`no brand "${values.brand}"`);
      const began = performance.now();
      const { engine } = await openCatalog(env, env.catalogDir);
      console.log(`search ready in ${Math.round(performance.now() - began)} ms (${engine.kind})`);
      const layout = new LayoutService({ segments, engine: () => engine, logger, rowDeadlineMs: env.LAYOUT_ROW_DEADLINE_MS });
      const request: PageRequest = !values.page || values.page === 'home' || values.page === 'explore' ? { page: 'home' } : { page: 'category', slug: values.page };
      const location = await resolveLocation(
        {
          ...(values.zip ? { zip: values.zip } : {}),
          ...(values.lat && values.lng ? { lat: Number(values.lat), lng: Number(values.lng) } : {}),
        },
        engine,
      );
      const timings = new Map<string, number>();
      const t = performance.now();
      const answer = await layout.layout(request, brand, location, { timings });
      console.log(`${brand.id} / ${answer.page}${answer.category ? ` (${answer.category})` : ''}: "${answer.title}" near ${location.city || '?'} ${location.state} (${location.source}) in ${Math.round(performance.now() - t)} ms`);
      for (const row of answer.rows) {
        const tabs = 'tabs' in row && row.tabs ? `  tabs: ${row.tabs.map((tab) => `${tab.id}=${tab.items.length}`).join(' ')}` : '';
        console.log(`  ${row.id.padEnd(32)} ${row.type.padEnd(10)} ${row.status.padEnd(7)} ${String(row.items.length).padStart(3)} items ${timings.get(row.id)!.toFixed(1).padStart(7)} ms${tabs}`);
      }
      return 0;
    }
    default:
      console.log(USAGE);
      return positionals[0] ? 2 : 0;
  }
}

function pageArgs(brand: string | undefined, page: string | undefined, segments: SegmentRepository) {
  const pageName = (!page || page === 'home' ? 'explore' : page) as Parameters<SegmentRepository['page']>[1];
  return { brand: brand ?? segments.defaultBrand.id, pageName };
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
