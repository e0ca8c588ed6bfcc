import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { parseEnv, type Env } from '../config/env.js';
import { AppError } from '../http/errors.js';
import { openStore } from '../store/open-store.js';
import { LayoutService, type PageRequest } from '../layout/layout-service.js';
import { resolveLocation } from '../layout/location.js';
import { openCatalog } from '../search/create-engine.js';
import { renderJsonSchema, segmentJsonSchemas } from './json-schema.js';
import { SegmentPublisher } from './segment-publisher.js';
import { SegmentRepository } from './segment-repository.js';
import { readSegmentDir } from './segment-set.js';
import { FileVersionStore, setDiff, SqlVersionStore } from './segment-versions.js';

const USAGE = `usage:
  npm run segments -- check                                   validate every brand's files
  npm run segments -- preview --brand B --page P [--zip Z | --lat L --lng G]
                                                              resolve a page's rows (P: home, or a category slug)
  npm run segments -- explain --brand B --page P              which file and override made each row
  npm run segments -- schema [--check]                        write (or check) schemas/json/
  npm run segments -- publish --note "what changed" [--author A] [--from DIR]
                                                              publish the drafts (or DIR) as a new version
  npm run segments -- history                                 the published versions, newest first
  npm run segments -- diff [N [M]]                            live → drafts; version N-1 → N; or N → M
  npm run segments -- rollback N [--note "why"] [--author A]  publish version N's files again as a new version`;

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
      note: { type: 'string' },
      author: { type: 'string' },
      from: { type: 'string' },
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
    case 'publish':
    case 'history':
    case 'diff':
    case 'rollback':
      return versionCommand(positionals, values, env);
    default:
      console.log(USAGE);
      return positionals[0] ? 2 : 0;
  }
}

/** `publish`, `history`, `diff` and `rollback`: the same versions the studio and every node use. */
async function versionCommand(positionals: string[], values: { note?: string; author?: string; from?: string }, env: Env): Promise<number> {
  const live = new SegmentRepository(env.segmentsDir);
  await live.load();
  const sql = env.DATABASE_URL ? await openStore({ databaseUrl: env.DATABASE_URL, dataDir: env.dataDir }) : null;
  const versions = sql ? new SqlVersionStore(sql) : new FileVersionStore(env.segmentVersionsDir);
  const publisher = new SegmentPublisher({ versions, live, liveDir: env.segmentsDir });
  const author = values.author ?? os.userInfo().username;
  const number = (text: string | undefined, what: string) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`${what} must be a version number (1, 2…), not ${JSON.stringify(text ?? '')}`);
    return n;
  };
  try {
    await publisher.sync();
    switch (positionals[0]) {
      case 'publish': {
        if (!values.note?.trim()) throw new UsageError('publish needs --note "what this publish changes"');
        const from = path.resolve(values.from ?? env.segmentDraftsDir);
        if (!existsSync(from)) throw new UsageError(`no drafts in ${from}: copy the live files there (or open the studio once), or pass --from DIR`);
        const version = await publisher.publish(await readSegmentDir(from), { note: values.note.trim(), author });
        console.log(`published version ${version.version} from ${path.relative('.', from) || '.'} (${Object.keys(version.files).length} files): ${version.note}`);
        return 0;
      }
      case 'history': {
        const { live: current, versions: list } = await publisher.history();
        if (list.length === 0) console.log('nothing is published yet');
        for (const v of list) {
          const changes = [...v.changes.added.map((f) => `+${f}`), ...v.changes.changed.map((f) => `~${f}`), ...v.changes.removed.map((f) => `-${f}`)];
          const when = v.publishedAt.slice(0, 16).replace('T', ' ');
          console.log(`${v.version === current ? '*' : ' '} ${String(v.version).padStart(4)}  ${when} UTC  ${(v.author ?? '-').padEnd(12)}  ${v.note}${v.restoredFrom ? ` (restores ${v.restoredFrom})` : ''}`);
          if (changes.length && v.version > 1) console.log(`        ${changes.join(' ')}`);
        }
        return 0;
      }
      case 'diff': {
        const [, a, b] = positionals;
        let text: string;
        if (a === undefined) {
          if (!existsSync(env.segmentDraftsDir)) throw new UsageError(`no drafts in ${env.segmentDraftsDir}`);
          text = setDiff(live.current.files, await readSegmentDir(env.segmentDraftsDir));
        } else if (b === undefined) {
          text = (await publisher.version(number(a, 'N'))).diff;
        } else {
          text = setDiff(await publisher.files(number(a, 'N')), await publisher.files(number(b, 'M')));
        }
        process.stdout.write(text || 'no differences\n');
        return 0;
      }
      default: {
        const n = number(positionals[1], 'rollback N');
        const version = await publisher.restore(n, { ...(values.note ? { note: values.note } : {}), author });
        console.log(`published version ${version.version}: the files of version ${n} (${version.note})`);
        return 0;
      }
    }
  } catch (err) {
    if (err instanceof AppError) {
      console.error(err.message);
      for (const p of (Array.isArray(err.details) ? err.details : []) as { file: string; path: string; message: string }[]) console.error(`  ${p.file}: ${p.path || '(file)'}: ${p.message}`);
      return 1;
    }
    throw err;
  } finally {
    await sql?.close();
  }
}

class UsageError extends AppError {
  constructor(message: string) {
    super(400, 'usage', message);
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
