import { existsSync } from 'node:fs';
import { mkdir, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { LayoutResponse } from '../../shared/schemas/layout.js';
import type { Brand } from '../../shared/schemas/brand-registry.js';
import { CATEGORIES } from '../../shared/catalog/categories.js';
import type { FlagService } from '../flags/flag-service.js';
import { AppError } from '../http/errors.js';
import { LayoutService, type PageRequest } from '../layout/layout-service.js';
import type { LocationQuery } from '../../shared/rules/location.js';
import type { SearchEngine } from '../search/search-engine.js';
import {
  writeSegmentDir,
  type PublishInput,
  type SegmentPublisher,
  type VersionSummary,
} from '../segments/segment-publisher.js';
import { SegmentRepository } from '../segments/segment-repository.js';
import {
  compileSegments,
  GROUP_PAGES,
  pageKey,
  readSegmentDir,
  REGISTRY_FILE,
  type SegmentFiles,
  type SkippedPage,
} from '../segments/segment-set.js';
import type { SegmentProblem } from '../segments/segment-problems.js';
import { filesDigest, setDiff } from '../segments/segment-versions.js';
import type { Logger } from '../../shared/logger.js';
import { checkDraft, checkPath } from './draft-checks.js';
import { forcedVariant, pageExperiments, type ExperimentView } from './page-experiments.js';
import { previewPlace } from './preview-place.js';

export interface DraftFile {
  path: string;
  text: string;
  status: 'unchanged' | 'changed' | 'added';
}

export interface StudioState {
  live: VersionSummary | null;
  files: DraftFile[];
  removed: string[];
  /** One per mistake in the drafts, at `file:line:column`, as `npm run segments -- check` prints them. */
  problems: SegmentProblem[];
  /** Draft pages not built because a file they extend has problems. */
  skipped: SkippedPage[];
  brands: { id: string; name: string; theme: Brand['theme'] }[];
  pages: { value: string; label: string }[];
}

export interface PreviewQuery extends LocationQuery {
  brand?: string;
  page: string;
  city?: string;
  variation?: number;
}

export interface PreviewRow {
  id: string;
  status: 'ok' | 'empty' | 'timeout' | 'error' | 'hidden';
  items: number;
  ms: number;
  file: string;
  via: string;
}

/**
 * The merchandisers' studio: draft segment files in a folder of their own (edited here or in any editor),
 * previewed exactly as shoppers will see them, and published as versions. Nothing in the drafts reaches
 * shoppers until it is published.
 */
export class StudioService {
  /** The drafts' pages, rebuilt when the draft files change, with a layout service of their own. */
  private readonly drafts: SegmentRepository;
  private readonly layout: LayoutService;
  private draftsDigest = '';
  private compiled: ReturnType<typeof compileSegments> | null = null;

  constructor(
    private readonly options: {
      draftsDir: string;
      publisher: SegmentPublisher;
      live: SegmentRepository;
      engine: () => SearchEngine;
      flags: FlagService;
      logger: Logger;
      rowDeadlineMs: number;
    },
  ) {
    this.drafts = new SegmentRepository(options.draftsDir);
    this.layout = new LayoutService({
      segments: this.drafts,
      engine: options.engine,
      logger: options.logger,
      rowDeadlineMs: options.rowDeadlineMs,
    });
  }

  /** The draft files; a studio opened for the first time starts from the live set. */
  async draftFiles(): Promise<SegmentFiles> {
    const dir = this.options.draftsDir;
    if (!existsSync(dir)) {
      // Made whole beside it, then renamed into place: no request (or crash) ever sees half a set.
      const staging = `${dir}.${randomBytes(6).toString('hex')}.tmp`;
      await mkdir(staging, { recursive: true });
      await writeSegmentDir(staging, this.options.live.current.files);
      await rename(staging, dir).catch(async (err: NodeJS.ErrnoException) => {
        await rm(staging, { recursive: true, force: true });
        // Another request made it first.
        if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
      });
    }
    return readSegmentDir(dir);
  }

  private refreshing: Promise<unknown> = Promise.resolve();

  /** One at a time, so a slower read of older drafts never replaces the pages of newer ones. */
  private refresh(): Promise<{ files: SegmentFiles; compiled: ReturnType<typeof compileSegments> }> {
    const next = this.refreshing.then(() => this.compileDrafts());
    this.refreshing = next.catch(() => {});
    return next;
  }

  private async compileDrafts(): Promise<{ files: SegmentFiles; compiled: ReturnType<typeof compileSegments> }> {
    const files = await this.draftFiles();
    const digest = filesDigest(files);
    if (digest !== this.draftsDigest || !this.compiled) {
      this.compiled = compileSegments(files);
      this.draftsDigest = digest;
      if (this.compiled.registry) this.drafts.use(files);
    }
    return { files, compiled: this.compiled };
  }

  async state(): Promise<StudioState> {
    const { files, compiled } = await this.refresh();
    const live = this.options.live.current.files;
    const liveVersion = this.options.publisher.live;
    const summary =
      liveVersion === null
        ? null
        : ((await this.options.publisher.history(1)).versions.find((v) => v.version === liveVersion) ?? null);
    const registry = compiled.registry ?? this.options.live.current.registry;
    return {
      live: summary,
      files: [...files].map(([file, text]) => ({
        path: file,
        text,
        status: !live.has(file) ? 'added' : live.get(file) === text ? 'unchanged' : 'changed',
      })),
      removed: [...live.keys()].filter((f) => !files.has(f)).sort(),
      problems: compiled.problems,
      skipped: compiled.skipped,
      brands: registry.brands.map((b) => ({ id: b.id, name: b.name, theme: b.theme })),
      pages: [
        { value: 'home', label: 'Home' },
        ...GROUP_PAGES.map((g) => ({ value: g, label: g[0]!.toUpperCase() + g.slice(1) })),
        ...CATEGORIES.filter((c) => !(GROUP_PAGES as readonly string[]).includes(c.slug)).map((c) => ({
          value: c.slug,
          label: c.name,
        })),
      ],
    };
  }

  async save(file: string, text: string): Promise<StudioState> {
    checkDraft(file, text);
    await this.draftFiles();
    const target = path.join(this.options.draftsDir, file);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temp, text);
    await rename(temp, target);
    return this.state();
  }

  /**
   * The problems the drafts would have with `file` as `text`, without saving it: what the studio's editor
   * marks as the merchandiser types, the same problems `check` reports.
   */
  async check(file: string, text: string): Promise<Pick<StudioState, 'problems' | 'skipped'>> {
    checkDraft(file, text);
    const files = new Map(await this.draftFiles());
    files.set(file, text);
    const compiled = compileSegments(files);
    return { problems: compiled.problems, skipped: compiled.skipped };
  }

  /** Removes a draft: any file the drafts are read from, a stray `explore copy.json` as well as a page. */
  async remove(file: string): Promise<StudioState> {
    if (file === REGISTRY_FILE)
      throw new AppError(400, 'invalid_path', `${REGISTRY_FILE} cannot be removed: every set needs its brand registry`);
    const drafts = await this.draftFiles();
    if (!drafts.has(file)) {
      checkPath(file);
      throw new AppError(404, 'draft_not_found', `There is no draft ${file}`);
    }
    await unlink(path.join(this.options.draftsDir, file));
    return this.state();
  }

  async discard(): Promise<StudioState> {
    await this.draftFiles();
    await writeSegmentDir(this.options.draftsDir, this.options.live.current.files);
    return this.state();
  }

  async diff(): Promise<string> {
    return setDiff(this.options.live.current.files, await this.draftFiles());
  }

  async publish(input: PublishInput): Promise<VersionSummary> {
    return this.summary((await this.options.publisher.publish(await this.draftFiles(), input)).version);
  }

  private async summary(n: number): Promise<VersionSummary> {
    const { diff: _diff, ...summary } = await this.options.publisher.version(n);
    return summary;
  }

  /** A page drawn from the drafts, as a shopper at that place (in that variation) would see it. */
  async preview(
    query: PreviewQuery,
  ): Promise<{ layout: LayoutResponse; rows: PreviewRow[]; variant: string | null; problems: SegmentProblem[] }> {
    const { files, compiled } = await this.refresh();
    if (!compiled.registry)
      throw new AppError(
        422,
        'draft_invalid',
        `${REGISTRY_FILE} has problems: no page can be drawn`,
        compiled.problems,
      );
    const brand = this.drafts.brand(query.brand ?? this.drafts.defaultBrand.id);
    if (!brand) throw new AppError(404, 'brand_not_found', `No brand "${query.brand}" in the drafts`);
    const request: PageRequest = query.page === 'home' ? { page: 'home' } : { page: 'category', slug: query.page };
    const segmentPage = this.layout.pageFor(request);
    const { page } = segmentPage;
    const variant =
      query.variation === undefined
        ? undefined
        : forcedVariant(this.options.flags, await this.experiments(brand.id), brand.id, page, query.variation);
    const resolved = this.drafts.page(brand.id, page, variant);
    if (!resolved || !compiled.pages.has(pageKey(brand.id, page))) {
      throw new AppError(
        422,
        'draft_invalid',
        `The ${query.page} page of ${brand.id} cannot be drawn from the drafts: fix the problems first`,
        compiled.problems,
      );
    }
    // A variation with a file of its own that does not build is not drawn as the base page in its place.
    const variantFile = variant && `${pageKey(brand.id, page, variant)}.json`;
    if (variantFile && files.has(variantFile) && !compiled.pages.has(pageKey(brand.id, page, variant))) {
      throw new AppError(
        422,
        'draft_invalid',
        `${variantFile} has problems: the ${variant} variation cannot be drawn until they are fixed`,
        compiled.problems,
      );
    }
    const location = await previewPlace(query, this.options.engine());
    const timings = new Map<string, number>();
    const layout = await this.layout.layout(request, brand, location, {
      segmentPage,
      ...(variant ? { variant } : {}),
      timings,
    });
    const shown = new Map(layout.rows.map((r) => [r.id, r]));
    const rows = resolved.rows.map((spec, i): PreviewRow => {
      const row = shown.get(spec.id);
      const items = !row
        ? 0
        : 'tabs' in row && row.tabs
          ? row.tabs.reduce((n, t) => n + t.items.length, 0)
          : row.items.length;
      const origin = resolved.origins[i]!;
      return {
        id: spec.id,
        status: row ? row.status : 'hidden',
        items,
        ms: Math.round((timings.get(spec.id) ?? 0) * 10) / 10,
        file: origin.file,
        via: origin.via,
      };
    });
    return { layout, rows, variant: variant ?? null, problems: compiled.problems };
  }

  /** The experiments that swap a page's layout, with their split and the rule that assigns guests. */
  async experiments(brandId?: string): Promise<ExperimentView[]> {
    // From the drafts' files, not their built pages: drafts whose first version has a broken registry have none.
    const { files, compiled } = await this.refresh();
    const brand = brandId ?? (compiled.registry ?? this.options.live.current.registry).defaultBrand;
    return pageExperiments(this.options.flags.payload(), files, brand);
  }

  versions() {
    return this.options.publisher.history();
  }

  version(n: number) {
    return this.options.publisher.version(n);
  }

  /**
   * Publishes version `n` again. Drafts that held nothing but the set live until now follow it, so the next
   * publish starts from what shoppers see rather than quietly undoing the restore; drafts with changes of
   * their own keep them (the diff shows them against the restored set).
   */
  async restore(n: number, input: Partial<PublishInput>): Promise<VersionSummary> {
    const unchanged = filesDigest(await this.draftFiles()) === filesDigest(this.options.live.current.files);
    const restored = await this.options.publisher.restore(n, input);
    if (unchanged) await writeSegmentDir(this.options.draftsDir, this.options.live.current.files);
    return this.summary(restored.version);
  }

  /** The catalog changed: previews draw their rows afresh (they are few; dropping them all is simplest). */
  catalogChanged(): void {
    this.layout.clearCache();
  }
}
