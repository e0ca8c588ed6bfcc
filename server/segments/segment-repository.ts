import { watch, type FSWatcher } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import {
  BrandRegistrySchema,
  OverrideFileSchema,
  PAGE_NAMES,
  PageFileSchema,
  type Brand,
  type BrandRegistry,
  type OverrideFile,
  type PageFile,
  type PageName,
  type RowSpec,
} from '../../schemas/segments.js';
import { CATEGORY_BY_SLUG } from '../catalog/taxonomy.js';
import { applyOverride, MergeError, type RowOrigin } from './merge.js';

export const REGISTRY_FILE = 'brands.json';
/** The group pages that have files of their own; every other category slug uses the `category` template. */
export const GROUP_PAGES = ['theater', 'concerts', 'sports'] as const;
const RELOAD_DEBOUNCE_MS = 100;

export interface ResolvedPage {
  brand: string;
  page: PageName;
  variant?: string;
  title: string;
  rows: RowSpec[];
  origins: RowOrigin[];
}

export interface SegmentProblem {
  file: string;
  /** JSON path inside the file, e.g. `rows[2].size`. */
  path: string;
  message: string;
}

export interface SegmentSnapshot {
  registry: BrandRegistry;
  pages: ReadonlyMap<string, ResolvedPage>;
  loadedAt: string;
}

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

type ParsedFile = { kind: 'page'; page: PageFile } | { kind: 'override'; override: OverrideFile };

export function jsonPath(parts: readonly PropertyKey[]): string {
  return parts.reduce<string>((out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${String(p)}` : String(p)), '');
}

/** `explore` or, for an experiment's variation, `explore~promos`. */
const pageKey = (brand: string, page: PageName, variant?: string) => `${brand}/${page}${variant ? `~${variant}` : ''}`;
const VARIANT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The segment files in memory. Every file is validated on its own; an invalid one is reported (file, JSON
 * path, reason) and its last good version keeps serving, and the merged pages are swapped in as a whole.
 * With `watch()`, edits on disk are picked up within a moment, so a merchandiser's change is live without a
 * restart and a broken edit cannot take a page down.
 */
export class SegmentRepository {
  private snapshot: SegmentSnapshot | null = null;
  private problems: SegmentProblem[] = [];
  private readonly lastGood = new Map<string, unknown>();
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private reloading: Promise<void> = Promise.resolve();

  constructor(
    readonly dir: string,
    private readonly logger?: Logger,
  ) {}

  /** Reads every file again; throws only when there is nothing good to serve at all. */
  async load(): Promise<SegmentSnapshot> {
    const problems: SegmentProblem[] = [];
    const files = await this.listFiles();
    const registry = await this.readValidated(REGISTRY_FILE, BrandRegistrySchema, problems);
    if (!registry) throw new Error(`segments: ${problems.map((p) => `${p.file}: ${p.path}: ${p.message}`).join('; ')}`);

    const parsed = new Map<string, ParsedFile>();
    for (const file of files) {
      if (file === REGISTRY_FILE) continue;
      const [brand, name] = file.split('/') as [string, string];
      const [page, variant] = name.replace(/\.json$/, '').split('~') as [PageName, string | undefined];
      if (variant !== undefined && !VARIANT.test(variant)) {
        problems.push({ file, path: '', message: `"${variant}" is not a variant name: use lower-case words joined by hyphens` });
        continue;
      }
      if (!registry.brands.some((b) => b.id === brand)) {
        problems.push({ file, path: '', message: `"${brand}" is not a brand in ${REGISTRY_FILE}` });
        continue;
      }
      if (!(PAGE_NAMES as readonly string[]).includes(page)) {
        problems.push({ file, path: '', message: `"${page}" is not a page; pages are ${PAGE_NAMES.join(', ')}` });
        continue;
      }
      const raw = await this.readJson(file, problems);
      if (raw === undefined) continue;
      const isOverride = typeof raw === 'object' && raw !== null && 'extends' in raw;
      const content = isOverride
        ? this.validate(file, raw, OverrideFileSchema, problems)
        : this.validate(file, raw, PageFileSchema, problems, (p) => checkPage(p, page));
      if (content) parsed.set(file, isOverride ? { kind: 'override', override: content as OverrideFile } : { kind: 'page', page: content as PageFile });
    }

    const pages = new Map<string, ResolvedPage>();
    const resolve = (brand: string, page: PageName, trail: string[] = [], variant?: string): ResolvedPage | null => {
      const key = pageKey(brand, page, variant);
      const done = pages.get(key);
      if (done) return done;
      const file = `${pageKey(brand, page, variant)}.json`;
      const entry = parsed.get(file);
      let result: ResolvedPage | null = null;
      if (!entry && variant) {
        return null;
      } else if (!entry) {
        // No file of its own: the brand shows the default brand's page.
        result = brand === registry.defaultBrand ? null : resolve(registry.defaultBrand, page, trail);
        if (result) result = { ...result, brand };
      } else if (entry.kind === 'page') {
        result = { brand, page, ...(variant ? { variant } : {}), title: entry.page.title, rows: entry.page.rows, origins: entry.page.rows.map((r) => ({ id: r.id, file, via: 'base' })) };
      } else if (trail.includes(brand) && !variant) {
        problems.push({ file, path: 'extends', message: `extends itself through ${[...trail, brand].join(' → ')}` });
      } else {
        const base = resolve(entry.override.extends, page, [...trail, brand]);
        if (!base) {
          problems.push({ file, path: 'extends', message: `brand "${entry.override.extends}" has no ${page} page to extend` });
        } else {
          try {
            const merged = applyOverride({ page: { title: base.title, rows: base.rows }, origins: base.origins }, entry.override, file);
            const check = PageFileSchema.safeParse(merged.page);
            const semantic = check.success ? checkPage(check.data, page) : [];
            if (!check.success) {
              for (const issue of check.error.issues) problems.push({ file, path: `(merged) ${jsonPath(issue.path)}`, message: issue.message });
            } else if (semantic.length > 0) {
              for (const p of semantic) problems.push({ ...p, file, path: `(merged) ${p.path}` });
            } else {
              result = { brand, page, ...(variant ? { variant } : {}), title: merged.page.title, rows: merged.page.rows, origins: merged.origins };
            }
          } catch (err) {
            if (!(err instanceof MergeError)) throw err;
            problems.push({ file, path: jsonPath(err.path), message: err.message });
          }
        }
      }
      // A page that cannot be merged now keeps the version that last could.
      const previous = this.snapshot?.pages.get(key);
      if (!result && previous) result = previous;
      if (result) pages.set(key, result);
      return result;
    };
    for (const brand of registry.brands) for (const page of PAGE_NAMES) resolve(brand.id, page);
    // A variation extends the brand's own page of that name (or whichever brand it names).
    for (const file of parsed.keys()) {
      const match = /^([^/]+)\/([a-z]+)~([^.]+)\.json$/.exec(file);
      if (match) resolve(match[1]!, match[2] as PageName, [], match[3]);
    }
    for (const page of PAGE_NAMES) {
      if (!pages.has(pageKey(registry.defaultBrand, page))) {
        problems.push({ file: `${registry.defaultBrand}/${page}.json`, path: '', message: 'the default brand must define every page' });
      }
    }

    this.problems = problems;
    this.snapshot = { registry, pages, loadedAt: new Date().toISOString() };
    for (const p of problems) this.logger?.warn({ file: p.file, path: p.path }, `segment rejected: ${p.message}`);
    return this.snapshot;
  }

  get current(): SegmentSnapshot {
    if (!this.snapshot) throw new Error('segments are not loaded');
    return this.snapshot;
  }

  status() {
    return { loadedAt: this.snapshot?.loadedAt ?? null, ok: this.problems.length === 0, problems: this.problems };
  }

  brand(id: string): Brand | undefined {
    return this.current.registry.brands.find((b) => b.id === id);
  }

  brandBySiteId(siteId: number): Brand | undefined {
    return this.current.registry.brands.find((b) => b.siteId === siteId);
  }

  get defaultBrand(): Brand {
    return this.brand(this.current.registry.defaultBrand)!;
  }

  /** The brand's page, in the experiment variation asked for when the brand has one, else the default. */
  page(brand: string, page: PageName, variant?: string): ResolvedPage | undefined {
    return (variant && this.current.pages.get(pageKey(brand, page, variant))) || this.current.pages.get(pageKey(brand, page));
  }

  /** Reloads shortly after any change under the folder; a failed reload keeps what was serving. */
  watch(): () => void {
    this.watcher = watch(this.dir, { recursive: true }, () => {
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.reloading = this.reloading.then(() =>
          this.load().then(
            (s) => this.logger?.info({ loadedAt: s.loadedAt, problems: this.problems.length }, 'segments reloaded'),
            (err: unknown) => this.logger?.error({ err }, 'segments reload failed; the last good version keeps serving'),
          ),
        );
      }, RELOAD_DEBOUNCE_MS);
    });
    return () => this.close();
  }

  /** Resolves once any reload in progress has finished (tests wait on it). */
  settled(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, RELOAD_DEBOUNCE_MS + 20)).then(() => this.reloading);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.watcher?.close();
    this.watcher = null;
  }

  private async listFiles(): Promise<string[]> {
    const out: string[] = [];
    for (const entry of await readdir(this.dir, { withFileTypes: true })) {
      if (entry.isFile() && entry.name === REGISTRY_FILE) out.push(entry.name);
      if (!entry.isDirectory()) continue;
      for (const file of await readdir(path.join(this.dir, entry.name))) {
        if (file.endsWith('.json')) out.push(`${entry.name}/${file}`);
      }
    }
    return out.sort();
  }

  private async readJson(file: string, problems: SegmentProblem[]): Promise<unknown> {
    try {
      return JSON.parse(await readFile(path.join(this.dir, file), 'utf8'));
    } catch (err) {
      problems.push({ file, path: '', message: err instanceof SyntaxError ? `not valid JSON: ${err.message}` : `unreadable: ${(err as Error).message}` });
      return this.lastGood.get(file);
    }
  }

  private async readValidated<S extends z.ZodType>(file: string, schema: S, problems: SegmentProblem[]): Promise<z.output<S> | undefined> {
    const raw = await this.readJson(file, problems);
    return raw === undefined ? undefined : this.validate(file, raw, schema, problems);
  }

  private validate<S extends z.ZodType>(
    file: string,
    raw: unknown,
    schema: S,
    problems: SegmentProblem[],
    extra?: (value: z.output<S>) => SegmentProblem[],
  ): z.output<S> | undefined {
    const result = schema.safeParse(raw);
    const found = result.success
      ? (extra?.(result.data) ?? []).map((p) => ({ ...p, file }))
      : result.error.issues.map((issue) => ({ file, path: jsonPath(issue.path), message: issue.message }));
    if (found.length === 0 && result.success) {
      this.lastGood.set(file, raw);
      return result.data;
    }
    problems.push(...found);
    const previous = this.lastGood.get(file);
    return previous === undefined ? undefined : (schema.parse(previous) as z.output<S>);
  }
}

/** Checks a schema cannot: category slugs exist, and `$category` appears only in the template. */
export function checkPage(page: PageFile, name: PageName): SegmentProblem[] {
  const problems: SegmentProblem[] = [];
  const known = (slug: string) => CATEGORY_BY_SLUG.has(slug) || (GROUP_PAGES as readonly string[]).includes(slug);
  const checkSlug = (slug: string, at: (string | number)[]) => {
    if (slug === '$category') {
      if (name !== 'category') problems.push({ file: '', path: jsonPath(at), message: '"$category" only works in the category template' });
    } else if (!known(slug)) {
      problems.push({ file: '', path: jsonPath(at), message: `unknown category "${slug}"` });
    }
  };
  page.rows.forEach((row, i) => {
    if ('filter' in row) row.filter.categories?.forEach((s, j) => checkSlug(s, ['rows', i, 'filter', 'categories', j]));
    if (row.kind === 'events') {
      row.tabs?.forEach((tab, t) => tab.filter.categories?.forEach((s, j) => checkSlug(s, ['rows', i, 'tabs', t, 'filter', 'categories', j])));
    }
    if (row.kind === 'categories') row.tiles.forEach((tile, t) => checkSlug(tile.slug, ['rows', i, 'tiles', t, 'slug']));
  });
  return problems;
}
