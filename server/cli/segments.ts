import { existsSync, realpathSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pino, type Logger } from 'pino';
import { parseEnv, type Env } from '../config/env.js';
import { EVERY_BRAND, VERSION_MAX, ZonedTimeSchema } from '../../shared/schemas/studio.js';
import { AppError } from '../http/errors.js';
import { openStore } from '../store/open-store.js';
import type { LayoutRow } from '../../shared/schemas/layout.js';
import type { PageName } from '../../shared/schemas/segments.js';
import { CATEGORY_BY_SLUG } from '../../shared/catalog/categories.js';
import { LayoutService, type PageRequest } from '../layout/layout-service.js';
import { resolveLocation } from '../layout/location-lookup.js';
import { openCatalog } from '../search/create-engine.js';
import { renderJsonSchema, segmentJsonSchemas } from '../segments/json-schema.js';
import { SegmentPublisher } from '../segments/segment-publisher.js';
import { SegmentRepository } from '../segments/segment-repository.js';
import { closest } from '../segments/did-you-mean.js';
import { formatProblem, type SegmentProblem } from '../segments/segment-problems.js';
import { compileSegments, GROUP_PAGES, readSegmentDir, type CompiledSegments } from '../segments/segment-set.js';
import { FileVersionStore, setDiff, SqlVersionStore } from '../segments/segment-versions.js';
import { SegmentAudit } from '../segments/segment-audit.js';
import { scheduleSummary, SegmentSchedule } from '../segments/segment-schedule.js';
import { recordStoresFor } from '../store/record-collections.js';

const USAGE = `usage:
  npm run segments -- check                                   validate every brand's files
  npm run segments -- preview --brand B --page P [--zip Z | --lat L --lng G] [--items]
                                                              resolve a page's rows (P: home, a group page or a
                                                              category slug; --items: each row's items too)
  npm run segments -- explain --brand B --page P              which file and override made each row (P as for preview)
  npm run segments -- schema [--check]                        write (or check) shared/schemas/json/
  npm run segments -- publish --note "what changed" [--author A] [--from DIR] [--at TIME]
                                                              publish the drafts (or DIR) as a new version; with
                                                              --at (e.g. 2026-12-04T09:00:00-05:00), schedule it
  npm run segments -- scheduled                               the scheduled versions, soonest first
  npm run segments -- unschedule N                            cancel scheduled version N
  npm run segments -- history                                 the published versions, newest first
  npm run segments -- diff [N [M]]                            live → drafts; version N-1 → N; or N → M
  npm run segments -- rollback N [--note "why"] [--author A]  publish version N's files again as a new version
  npm run segments -- audit [--brand B]                       who saved, published, scheduled and shared what`;

export const SCHEMA_DIR = path.resolve('shared/schemas/json');

/** Runs one command and answers its exit code; prints to the console. */
export async function main(argv: string[], processEnv: NodeJS.ProcessEnv = process.env): Promise<number> {
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
      at: { type: 'string' },
      items: { type: 'boolean', default: false },
    },
  });
  const env = parseEnv({ ...processEnv, LOG_LEVEL: processEnv.LOG_LEVEL ?? 'silent' });
  const logger = pino({ level: env.LOG_LEVEL });
  const segments = new SegmentRepository(env.segmentsDir);
  try {
    return await command(positionals, values, env, segments, logger);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(err.message);
    return 1;
  }
}

async function command(
  positionals: string[],
  values: {
    page?: string;
    brand?: string;
    zip?: string;
    lat?: string;
    lng?: string;
    check?: boolean;
    items?: boolean;
    note?: string;
    author?: string;
    from?: string;
    at?: string;
  },
  env: Env,
  segments: SegmentRepository,
  logger: Logger,
): Promise<number> {
  switch (positionals[0]) {
    case 'check': {
      const compiled = compileSegments(await readSegmentDir(env.segmentsDir));
      if (report(compiled)) return 1;
      console.log(`all segment files are valid (${env.segmentsDir})`);
      return 0;
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
      const target = pageArgument(values.page);
      if (report(compileSegments(await readSegmentDir(env.segmentsDir)))) return 1;
      await segments.load();
      const brand = brandArgument(values.brand, segments);
      const page = segments.page(brand, target.page)!;
      const title = target.category
        ? page.title.replaceAll('{category}', CATEGORY_BY_SLUG.get(target.category)!.name)
        : page.title;
      console.log(`${brand} / ${target.page}${target.category ? ` (${target.category})` : ''}: "${title}"`);
      page.origins.forEach((o, i) =>
        console.log(`  ${String(i + 1).padStart(2)}. ${o.id.padEnd(32)} ${o.via.padEnd(12)} ${o.file}`),
      );
      return 0;
    }
    case 'preview': {
      const target = pageArgument(values.page);
      if (report(compileSegments(await readSegmentDir(env.segmentsDir)))) return 1;
      await segments.load();
      const brand = segments.brand(brandArgument(values.brand, segments))!;
      const began = performance.now();
      const { engine } = await openCatalog(env, env.catalogDir);
      console.log(`search ready in ${Math.round(performance.now() - began)} ms (${engine.kind})`);
      const layout = new LayoutService({
        segments,
        engine: () => engine,
        logger,
        rowDeadlineMs: env.LAYOUT_ROW_DEADLINE_MS,
      });
      const location = await resolveLocation(
        {
          ...(values.zip ? { zip: values.zip } : {}),
          ...(values.lat && values.lng ? { lat: Number(values.lat), lng: Number(values.lng) } : {}),
        },
        engine,
      );
      const timings = new Map<string, number>();
      const t = performance.now();
      const answer = await layout.layout(target.request, brand, location, { timings });
      console.log(
        `${brand.id} / ` +
          `${answer.page}${answer.category ? ` (${answer.category})` : ''}: ` +
          `"${answer.title}" near ${location.city || '?'} ${location.state} ` +
          `(${location.source}) in ${Math.round(performance.now() - t)} ms`,
      );
      for (const row of answer.rows) {
        const tabs =
          'tabs' in row && row.tabs
            ? `  tabs: ${row.tabs.map((tab) => `${tab.id}=${tab.items.length}`).join(' ')}`
            : '';
        console.log(
          `  ${row.id.padEnd(32)} ${row.type.padEnd(10)} ${row.status.padEnd(7)} ` +
            `${String(row.items.length).padStart(3)} items ${timings.get(row.id)!.toFixed(1).padStart(7)} ms${tabs}`,
        );
        if (values.items) for (const line of itemLines(row)) console.log(`      ${line}`);
      }
      return 0;
    }
    case 'publish':
    case 'history':
    case 'diff':
    case 'rollback':
    case 'scheduled':
    case 'unschedule':
    case 'audit':
      return versionCommand(positionals, values, env);
    default:
      console.log(USAGE);
      return positionals[0] ? 2 : 0;
  }
}

/** `publish`, `history`, `diff` and `rollback`: the same versions the studio and every node use. */
async function versionCommand(
  positionals: string[],
  values: { note?: string; author?: string; from?: string; at?: string; brand?: string },
  env: Env,
): Promise<number> {
  const live = new SegmentRepository(env.segmentsDir);
  await live.load();
  const sql = env.DATABASE_URL ? await openStore({ databaseUrl: env.DATABASE_URL, dataDir: env.dataDir }) : null;
  const versions = sql ? new SqlVersionStore(sql) : new FileVersionStore(env.segmentVersionsDir);
  const publisher = new SegmentPublisher({ versions, live, liveDir: env.segmentsDir });
  const records = recordStoresFor(sql, env.studioRecordsDir);
  const audit = new SegmentAudit(records);
  const schedule = new SegmentSchedule({ records, publisher, audit });
  const author = values.author ?? whoAmI();
  // Who the audit log names: the command line is the operator's, with the name they give or log in with.
  const actor = { id: 'cli', name: author ?? 'command line' };
  const number = (text: string | undefined, what: string) => {
    const n = /^[0-9]{1,10}$/.test(text ?? '') ? Number(text) : NaN;
    if (!Number.isInteger(n) || n < 1 || n > VERSION_MAX)
      throw new UsageError(`${what} must be a version number (1, 2…), not ${JSON.stringify(text ?? '')}`);
    return n;
  };
  try {
    await publisher.sync();
    switch (positionals[0]) {
      case 'publish': {
        if (!values.note?.trim()) throw new UsageError('publish needs --note "what this publish changes"');
        const from = path.resolve(values.from ?? env.segmentDraftsDir);
        if (!existsSync(from))
          throw new UsageError(
            `no drafts in ${from}: copy the live files there (or open the studio once), or pass --from DIR`,
          );
        const files = await readSegmentDir(from);
        if (values.at !== undefined) {
          const at = ZonedTimeSchema.safeParse(values.at);
          if (!at.success) throw new UsageError(`--at must be ${at.error.issues[0]!.message}, not "${values.at}"`);
          const { files: base } = await schedule.asOf(new Date(at.data));
          const scheduled = await schedule.schedule({
            files,
            base,
            at: new Date(at.data),
            note: values.note.trim(),
            author: actor,
          });
          console.log(
            `scheduled version ${scheduled.id} for ${scheduled.at} from ${path.relative('.', from) || '.'}: ` +
              `${scheduled.note} (checked again when due; \`npm run segments -- unschedule ${scheduled.id}\` cancels)`,
          );
          return 0;
        }
        const before = live.current.files;
        const version = await publisher.publish(files, { note: values.note.trim(), author });
        await audit.published(actor, { before, after: files, version });
        console.log(
          `published version ${version.version} from ${path.relative('.', from) || '.'} ` +
            `(${Object.keys(version.files).length} files): ${version.note}`,
        );
        return 0;
      }
      case 'scheduled': {
        const list = await schedule.list();
        if (list.length === 0) console.log('nothing is scheduled');
        for (const s of list) {
          const c = scheduleSummary(s).changes;
          const changes = [
            ...c.added.map((f) => `+${f}`),
            ...c.changed.map((f) => `~${f}`),
            ...c.removed.map((f) => `-${f}`),
          ];
          const outcome =
            s.status === 'published'
              ? `published as version ${s.version}`
              : s.status === 'failed'
                ? `not published: ${s.reason}`
                : s.status;
          console.log(
            `${String(s.id).padStart(4)}  ${s.at}  ${s.author.name.padEnd(12)}  ${outcome.padEnd(10)}  ${s.note}`,
          );
          if (changes.length) console.log(`        ${changes.join(' ')}`);
        }
        return 0;
      }
      case 'unschedule': {
        const id = String(number(positionals[1], 'unschedule N'));
        const cancelled = await schedule.cancel(id, actor);
        console.log(`cancelled scheduled version ${id} (was due ${cancelled.at})`);
        return 0;
      }
      case 'audit': {
        const entries = await audit.recent(values.brand ? { brands: new Set([values.brand, EVERY_BRAND]) } : {});
        if (entries.length === 0) console.log('the audit log is empty');
        for (const e of entries) {
          const when = e.at.slice(0, 19).replace('T', ' ');
          const who = e.actor.name.padEnd(12);
          console.log(`${when} UTC  ${who}  ${e.action.padEnd(17)}  ${e.brands.join(',').padEnd(8)}  ${e.summary}`);
        }
        return 0;
      }
      case 'history': {
        const { live: current, versions: list } = await publisher.history();
        if (list.length === 0) console.log('nothing is published yet');
        for (const v of list) {
          const changes = [
            ...v.changes.added.map((f) => `+${f}`),
            ...v.changes.changed.map((f) => `~${f}`),
            ...v.changes.removed.map((f) => `-${f}`),
          ];
          const when = v.publishedAt.slice(0, 16).replace('T', ' ');
          console.log(
            `${v.version === current ? '*' : ' '} ${String(v.version).padStart(4)}  ${when} ` +
              `UTC  ${(v.author ?? '-').padEnd(12)}  ${v.note}${v.restoredFrom ? ` (restores ${v.restoredFrom})` : ''}`,
          );
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
        const before = live.current.files;
        const old = await publisher.files(n);
        const version = await publisher.restore(n, { ...(values.note ? { note: values.note } : {}), author });
        await audit.published(actor, { before, after: old, version, restoredFrom: n });
        console.log(`published version ${version.version}: the files of version ${n} (${version.note})`);
        return 0;
      }
    }
  } catch (err) {
    if (err instanceof AppError) {
      console.error(err.message);
      for (const p of (Array.isArray(err.details) ? err.details : []) as SegmentProblem[])
        console.error(`  ${formatProblem(p)}`);
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

/**
 * Prints a set's problems, one line each at `file:line:column`, then the pages skipped because of them and a
 * count; answers whether there were any.
 */
function report({ problems, skipped }: CompiledSegments): boolean {
  for (const p of problems) console.log(formatProblem(p));
  for (const s of skipped) console.log(`skipped ${s.file}: because ${s.because} has errors`);
  if (problems.length === 0) return false;
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  console.log(
    `${plural(problems.length, 'problem')}${
      skipped.length
        ? `; ${plural(skipped.length, 'file')} skipped until ${problems.length === 1 ? 'it is' : 'they are'} ` + `fixed`
        : ''
    }`,
  );
  return true;
}

const PAGE_ARGUMENTS = ['home', ...GROUP_PAGES, ...CATEGORY_BY_SLUG.keys()];

/** `--page` for preview and explain alike: home (or explore), a group page, or any category slug. */
export function pageArgument(page: string | undefined): { request: PageRequest; page: PageName; category?: string } {
  if (!page || page === 'home' || page === 'explore') return { request: { page: 'home' }, page: 'explore' };
  if ((GROUP_PAGES as readonly string[]).includes(page))
    return { request: { page: 'category', slug: page }, page: page as PageName };
  if (CATEGORY_BY_SLUG.has(page))
    return { request: { page: 'category', slug: page }, page: 'category', category: page };
  const meant = closest(page, PAGE_ARGUMENTS);
  throw new UsageError(
    `--page "${page}" is not a page: use home, ${GROUP_PAGES.join(', ')} or a ` +
      `category slug such as nfl${meant ? `. Did you mean "${meant}"?` : ''}`,
  );
}

function brandArgument(brand: string | undefined, segments: SegmentRepository): string {
  if (brand === undefined) return segments.defaultBrand.id;
  if (segments.brand(brand)) return brand;
  const ids = segments.current.registry.brands.map((b) => b.id);
  const meant = closest(brand, ids);
  throw new UsageError(
    `--brand "${brand}" is not a brand: ${ids.join(', ')}${meant ? `. Did you mean "${meant}"?` : ''}`,
  );
}

/** `preview --items`: what each of a row's cards shows, one line each (a tabbed row's items under each tab). */
export function itemLines(row: LayoutRow): string[] {
  switch (row.type) {
    case 'events': {
      const event = (e: (typeof row.items)[number]) =>
        `${e.name} · ${[e.day, e.date, e.year, e.time].filter(Boolean).join(' ')} · ${e.address}`;
      if (!row.tabs) return row.items.map(event);
      return row.tabs.flatMap((tab) => [`[${tab.id}] ${tab.title}`, ...tab.items.map((e) => `  ${event(e)}`)]);
    }
    case 'performers':
      return row.items.map((p) => p.name);
    case 'venues':
      return row.items.map((v) => `${v.name} · ${v.address}`);
    case 'categories':
      return row.items.map((c) => c.title);
    case 'promos':
      return row.items.map((p) => p.title);
  }
}

const script = process.argv[1] && existsSync(process.argv[1]) ? realpathSync(process.argv[1]) : '';
// Imported (by the tests), it only exports; run as `tsx server/cli/segments.ts`, it runs.
if (script === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}

/** Who publishes from a terminal: the login name, when the system has one (a container's user may have none). */
function whoAmI(): string | null {
  try {
    return os.userInfo().username || null;
  } catch {
    return null;
  }
}
