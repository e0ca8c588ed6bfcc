import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { BrandRegistrySchema, type BrandRegistry } from '../../shared/schemas/brand-registry.js';
import {
  OverrideFileSchema,
  PAGE_NAMES,
  PageFileSchema,
  type OverrideFile,
  type PageFile,
  type PageName,
} from '../../shared/schemas/segments.js';
import type { RowSpec } from '../../shared/schemas/segment-rows.js';
import { CATEGORY_BY_SLUG } from '../../shared/catalog/categories.js';
import { applyOverride, MergeError, type RowOrigin } from './merge.js';
import { didYouMean } from './did-you-mean.js';
import { describeIssues } from './issue-sentences.js';
import { SegmentSource, shortValue, type PathProblem, type SegmentProblem } from './segment-problems.js';

export const REGISTRY_FILE = 'brands.json';
/** The group pages that have files of their own; every other category slug uses the `category` template. */
export const GROUP_PAGES = ['theater', 'concerts', 'sports'] as const;

/**
 * A whole set of segment files, by path inside the set (`brands.json`, `base/explore.json`), each as its text.
 * What a draft folder holds, what a published version holds, and what the live pages are built from.
 */
export type SegmentFiles = ReadonlyMap<string, string>;

export interface ResolvedPage {
  brand: string;
  page: PageName;
  variant?: string;
  title: string;
  rows: RowSpec[];
  origins: RowOrigin[];
}

/** A page left unbuilt because a file it extends has problems: reported once, at that file, not again here. */
export interface SkippedPage {
  /** The file that was not built, e.g. `encore/explore.json`. */
  file: string;
  /** The page it makes, e.g. `encore/explore` or `base/explore~promos`. */
  page: string;
  /** The file with problems it depends on, e.g. `base/explore.json`. */
  because: string;
}

export interface CompiledSegments {
  /** Null when there is nothing to serve at all (the brand registry is broken). */
  registry: BrandRegistry | null;
  pages: ReadonlyMap<string, ResolvedPage>;
  /** One per mistake, at the file that has it. */
  problems: SegmentProblem[];
  skipped: SkippedPage[];
}

/** The files a segment set is made of: the registry and `<brand>/<page>[~<variant>].json`. */
export const SEGMENT_FILE = /^(?:brands\.json|[a-z0-9]+(?:-[a-z0-9]+)*\/[a-z]+(?:~[^/\0]{1,64})?\.json)$/;
/** A name a segment file may be written under: a well-formed variant, and a brand id of at most 64 characters. */
export const WRITABLE_SEGMENT_FILE =
  /^(?:brands\.json|[a-z0-9][a-z0-9-]{0,63}\/[a-z]{1,20}(?:~[a-z0-9]+(?:-[a-z0-9]+)*)?\.json)$/;

/** `explore` or, for an experiment's variation, `explore~promos`. */
export const pageKey = (brand: string, page: PageName, variant?: string) =>
  `${brand}/${page}${variant ? `~${variant}` : ''}`;
const VARIANT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

type ParsedFile = ({ kind: 'page'; page: PageFile } | { kind: 'override'; override: OverrideFile }) & {
  source: SegmentSource;
};

/** Reads a folder's segment files (the registry and one folder per brand); other files are not part of the set. */
export async function readSegmentDir(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const names: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name === REGISTRY_FILE) names.push(entry.name);
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    for (const file of await readdir(path.join(dir, entry.name))) {
      if (file.endsWith('.json')) names.push(`${entry.name}/${file}`);
    }
  }
  for (const name of names.sort()) files.set(name, await readFile(path.join(dir, name), 'utf8'));
  return files;
}

/**
 * Validates a whole set of segment files and merges every brand's pages. Pure: the same files give the same
 * pages and problems. Each file is checked on its own (JSON, schema, category slugs), then overrides are
 * applied to the pages they extend. A mistake is one problem, at its file: a page extending a file with
 * problems is listed as skipped because of that file, not as a problem of its own.
 */
export function compileSegments(files: SegmentFiles): CompiledSegments {
  const problems: SegmentProblem[] = [];
  const skipped: SkippedPage[] = [];
  const registryText = files.get(REGISTRY_FILE);
  const registrySource = new SegmentSource(REGISTRY_FILE, registryText ?? '');
  if (registryText === undefined)
    problems.push(registrySource.whole(`there is no ${REGISTRY_FILE}: every set needs its brand registry`));
  const registryJson = registryText === undefined ? undefined : parseFile(registrySource, problems);
  const registry =
    registryJson && check(registrySource, registryJson.value, BrandRegistrySchema, REGISTRY_FILE, problems);
  if (!registry) return { registry: null, pages: new Map(), problems: problems.sort(byPlace), skipped };
  const brandIds = registry.brands.map((b) => b.id);
  const notABrand = (brand: string) =>
    `"${brand}" is not a brand in ${REGISTRY_FILE}. Brands: ${brandIds.join(', ')}.${didYouMean(brand, brandIds)}`;

  const parsed = new Map<string, ParsedFile>();
  for (const [file, text] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    if (file === REGISTRY_FILE) continue;
    const source = new SegmentSource(file, text);
    const [brand, name] = file.split('/') as [string, string];
    const [page, variant] = name.replace(/\.json$/, '').split('~') as [PageName, string | undefined];
    if (variant !== undefined && !VARIANT.test(variant)) {
      problems.push(
        source.whole(`"${variant}" is not a variant name: use lower-case words joined by hyphens`, shortValue(variant)),
      );
      continue;
    }
    if (!brandIds.includes(brand)) {
      problems.push(source.whole(`the folder ${notABrand(brand)}`, shortValue(brand)));
      continue;
    }
    if (!(PAGE_NAMES as readonly string[]).includes(page)) {
      problems.push(
        source.whole(
          `"${page}" is not a page. Pages: ${PAGE_NAMES.join(', ')}.${didYouMean(page, PAGE_NAMES)}`,
          shortValue(page),
        ),
      );
      continue;
    }
    const content = parseFile(source, problems);
    if (!content) continue;
    const raw = content.value;
    if (typeof raw === 'object' && raw !== null && 'extends' in raw) {
      const override = check(source, raw, OverrideFileSchema, 'an override file', problems, (o) =>
        checkRows(
          o.operations.map((op) => ('row' in op ? op.row : undefined)),
          page,
          (k) => ['operations', k, 'row'],
        ),
      );
      if (override) parsed.set(file, { kind: 'override', override, source });
    } else {
      const pageFile = check(source, raw, PageFileSchema, 'a page file', problems, (p) => checkPage(p, page));
      if (pageFile) parsed.set(file, { kind: 'page', page: pageFile, source });
    }
  }

  const pages = new Map<string, ResolvedPage>();
  /** Pages that could not be built, with the file whose problems are the reason (null: there is no file). */
  const failed = new Map<string, string | null>();
  const resolve = (brand: string, page: PageName, trail: string[] = [], variant?: string): ResolvedPage | null => {
    const key = pageKey(brand, page, variant);
    const done = pages.get(key);
    if (done) return done;
    if (failed.has(key)) return null;
    const file = `${key}.json`;
    const entry = parsed.get(file);
    let result: ResolvedPage | null = null;
    let cause: string | null = null;
    if (!entry && files.has(file)) {
      // Its own problems are reported already.
      cause = file;
    } else if (!entry) {
      // No file of its own: the brand shows the default brand's page.
      if (brand !== registry.defaultBrand && !variant) {
        const fallback = resolve(registry.defaultBrand, page, trail);
        if (fallback) result = { ...fallback, brand };
        else cause = failed.get(pageKey(registry.defaultBrand, page)) ?? null;
      }
    } else if (entry.kind === 'page') {
      result = {
        brand,
        page,
        ...(variant ? { variant } : {}),
        title: entry.page.title,
        rows: entry.page.rows,
        origins: entry.page.rows.map((r) => ({ id: r.id, file, via: 'base' })),
      };
    } else if (!brandIds.includes(entry.override.extends)) {
      problems.push(entry.source.place({ at: ['extends'], message: notABrand(entry.override.extends) }));
      cause = file;
    } else if (trail.includes(brand) && !variant) {
      problems.push(
        entry.source.place({ at: ['extends'], message: `extends itself through ${[...trail, brand].join(' → ')}` }),
      );
      cause = file;
    } else {
      const { extends: from } = entry.override;
      const base = resolve(from, page, [...trail, brand]);
      const baseCause = base ? null : failed.get(pageKey(from, page));
      cause = file;
      if (baseCause && baseCause !== file) {
        skipped.push({ file, page: key, because: baseCause });
        cause = baseCause;
      } else if (!base) {
        if (!baseCause)
          problems.push(
            entry.source.place({
              at: ['extends'],
              message: `brand "${from}" has no ${page} page to extend: there is no ${from}/${page}.json`,
            }),
          );
      } else {
        const merged = merge(base, entry.override, entry.source);
        if ('page' in merged) {
          result = {
            brand,
            page,
            ...(variant ? { variant } : {}),
            title: merged.page.title,
            rows: merged.page.rows,
            origins: merged.origins,
          };
        } else {
          problems.push(...merged.problems);
        }
      }
    }
    if (result) pages.set(key, result);
    else failed.set(key, cause);
    return result;
  };
  for (const brand of registry.brands) for (const page of PAGE_NAMES) resolve(brand.id, page);
  // A variation extends the brand's own page of that name (or whichever brand it names).
  for (const file of parsed.keys()) {
    const match = /^([^/]+)\/([a-z]+)~([^.]+)\.json$/.exec(file);
    if (match) resolve(match[1]!, match[2] as PageName, [], match[3]);
  }
  for (const page of PAGE_NAMES) {
    const key = pageKey(registry.defaultBrand, page);
    if (!pages.has(key) && !failed.get(key)) {
      problems.push(
        new SegmentSource(`${key}.json`, '').whole(
          `there is no ${key}.json: the default brand, ${registry.defaultBrand}, ` +
            `must define every page (${PAGE_NAMES.join(', ')})`,
        ),
      );
    }
  }
  return { registry, pages, problems: problems.sort(byPlace), skipped };
}

const byPlace = (a: SegmentProblem, b: SegmentProblem) =>
  a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column;

/** Applies an override and checks the page it makes; a problem is placed at the operation that caused it. */
function merge(
  base: ResolvedPage,
  override: OverrideFile,
  source: SegmentSource,
): { page: PageFile; origins: RowOrigin[] } | { problems: SegmentProblem[] } {
  let merged: { page: PageFile; origins: RowOrigin[] };
  try {
    merged = applyOverride(
      { page: { title: base.title, rows: base.rows }, origins: base.origins },
      override,
      source.file,
    );
  } catch (err) {
    if (!(err instanceof MergeError)) throw err;
    return { problems: [source.place({ at: err.path, message: err.message })] };
  }
  // In the merged page's rows, the override's own rows are found at the operation that brought them.
  const inOverride = (at: (string | number)[]): (string | number)[] => {
    const origin = at[0] === 'rows' && typeof at[1] === 'number' ? merged.origins[at[1]] : undefined;
    const k =
      origin?.file === source.file ? override.operations.findIndex((op) => 'row' in op && op.row.id === origin.id) : -1;
    return k >= 0 ? ['operations', k, 'row', ...at.slice(2)] : ['operations'];
  };
  const result = PageFileSchema.safeParse(merged.page);
  const found = result.success
    ? []
    : describeIssues(result.error.issues, merged.page, PageFileSchema, 'the merged page');
  if (found.length === 0) return merged;
  return {
    problems: found.map((p) =>
      source.place({ at: inOverride(p.at), message: `with the operations applied, ${p.message}` }),
    ),
  };
}

/** Checks a parsed file against its schema (and `extra`, once the schema passes); its problems go in `problems`. */
function check<S extends z.ZodType>(
  source: SegmentSource,
  raw: unknown,
  schema: S,
  root: string,
  problems: SegmentProblem[],
  extra?: (value: z.output<S>) => PathProblem[],
): z.output<S> | undefined {
  const result = schema.safeParse(raw);
  const found = result.success ? (extra?.(result.data) ?? []) : describeIssues(result.error.issues, raw, schema, root);
  problems.push(...found.map((p) => source.place(p)));
  return found.length === 0 && result.success ? result.data : undefined;
}

/** The file's JSON, or undefined with its syntax error in `problems`. */
function parseFile(source: SegmentSource, problems: SegmentProblem[]): { value: unknown } | undefined {
  const content = source.parse();
  if ('value' in content) return content;
  problems.push(content.problem);
  return undefined;
}

const KNOWN_SLUGS = [...CATEGORY_BY_SLUG.keys(), ...GROUP_PAGES];

/** Checks a schema cannot: category slugs exist, and `$category` appears only in the template. */
export function checkPage(page: PageFile, name: PageName): PathProblem[] {
  return checkRows(page.rows, name, (i) => ['rows', i]);
}

function checkRows(
  rows: readonly (RowSpec | undefined)[],
  name: PageName,
  at: (i: number) => (string | number)[],
): PathProblem[] {
  const problems: PathProblem[] = [];
  const checkSlug = (slug: string, path: (string | number)[]) => {
    if (slug === '$category') {
      if (name !== 'category')
        problems.push({ at: path, message: '"$category" only works in the category template (category.json)' });
    } else if (!KNOWN_SLUGS.includes(slug)) {
      const hint =
        didYouMean(slug, KNOWN_SLUGS) ||
        ' Use a category slug such as "nfl" or "broadway", or sports, concerts or theater.';
      problems.push({ at: path, message: `${shortValue(slug)} is not a category.${hint}` });
    }
  };
  rows.forEach((row, i) => {
    if (!row) return;
    if ('filter' in row) row.filter.categories?.forEach((s, j) => checkSlug(s, [...at(i), 'filter', 'categories', j]));
    if (row.kind === 'events') {
      row.tabs?.forEach((tab, t) =>
        tab.filter.categories?.forEach((s, j) => checkSlug(s, [...at(i), 'tabs', t, 'filter', 'categories', j])),
      );
    }
    if (row.kind === 'categories') row.tiles.forEach((tile, t) => checkSlug(tile.slug, [...at(i), 'tiles', t, 'slug']));
  });
  return problems;
}
