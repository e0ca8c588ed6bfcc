import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import {
  BrandRegistrySchema,
  OverrideFileSchema,
  PAGE_NAMES,
  PageFileSchema,
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

export interface SegmentProblem {
  file: string;
  /** JSON path inside the file, e.g. `rows[2].size`. */
  path: string;
  message: string;
}

export interface CompiledSegments {
  /** Null when there is nothing to serve at all (the brand registry is broken). */
  registry: BrandRegistry | null;
  pages: ReadonlyMap<string, ResolvedPage>;
  problems: SegmentProblem[];
}

/** The files a segment set is made of: the registry and `<brand>/<page>[~<variant>].json`. */
export const SEGMENT_FILE = /^(?:brands\.json|[a-z0-9]+(?:-[a-z0-9]+)*\/[a-z]+(?:~[^/]+)?\.json)$/;

export function jsonPath(parts: readonly PropertyKey[]): string {
  return parts.reduce<string>((out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${String(p)}` : String(p)), '');
}

/** `explore` or, for an experiment's variation, `explore~promos`. */
export const pageKey = (brand: string, page: PageName, variant?: string) => `${brand}/${page}${variant ? `~${variant}` : ''}`;
const VARIANT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

type ParsedFile = { kind: 'page'; page: PageFile } | { kind: 'override'; override: OverrideFile };

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
 * applied to the pages they extend.
 */
export function compileSegments(files: SegmentFiles): CompiledSegments {
  const problems: SegmentProblem[] = [];
  const registryText = files.get(REGISTRY_FILE);
  const registry = registryText === undefined
    ? (problems.push({ file: REGISTRY_FILE, path: '', message: `there is no ${REGISTRY_FILE}` }), undefined)
    : validate(REGISTRY_FILE, parseJson(REGISTRY_FILE, registryText, problems), BrandRegistrySchema, problems);
  if (!registry) return { registry: null, pages: new Map(), problems };

  const parsed = new Map<string, ParsedFile>();
  for (const [file, text] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
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
    const raw = parseJson(file, text, problems);
    if (raw === undefined) continue;
    const isOverride = typeof raw === 'object' && raw !== null && 'extends' in raw;
    const content = isOverride
      ? validate(file, raw, OverrideFileSchema, problems)
      : validate(file, raw, PageFileSchema, problems, (p) => checkPage(p, page));
    if (content) parsed.set(file, isOverride ? { kind: 'override', override: content as OverrideFile } : { kind: 'page', page: content as PageFile });
  }

  const pages = new Map<string, ResolvedPage>();
  const resolve = (brand: string, page: PageName, trail: string[] = [], variant?: string): ResolvedPage | null => {
    const key = pageKey(brand, page, variant);
    const done = pages.get(key);
    if (done) return done;
    const file = `${key}.json`;
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
  return { registry, pages, problems };
}

function parseJson(file: string, text: string, problems: SegmentProblem[]): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    problems.push({ file, path: '', message: `not valid JSON: ${(err as Error).message}` });
    return undefined;
  }
}

function validate<S extends z.ZodType>(
  file: string,
  raw: unknown,
  schema: S,
  problems: SegmentProblem[],
  extra?: (value: z.output<S>) => SegmentProblem[],
): z.output<S> | undefined {
  if (raw === undefined) return undefined;
  const result = schema.safeParse(raw);
  const found = result.success
    ? (extra?.(result.data) ?? []).map((p) => ({ ...p, file }))
    : result.error.issues.map((issue) => ({ file, path: jsonPath(issue.path), message: issue.message }));
  problems.push(...found);
  return found.length === 0 && result.success ? result.data : undefined;
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
