import { existsSync } from 'node:fs';
import { mkdir, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
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
import { diffOfFiles, filesDigest, setChanges, setDiff } from '../segments/segment-versions.js';
import type { Logger } from '../../shared/logger.js';
import type { RecordStores } from '../store/record-collections.js';
import { brandOfFile, brandsOfChange, brandsOfFiles, changedFiles, SegmentAudit } from '../segments/segment-audit.js';
import { scheduleSummary, SegmentSchedule, type ScheduleSummary } from '../segments/segment-schedule.js';
import {
  EVERY_BRAND,
  type PreviewLinkView,
  type SharedPreviewView,
  type StudioGrant,
} from '../../shared/schemas/studio.js';
import { checkDraft, checkPath } from './draft-checks.js';
import {
  holds,
  KEY_ADMIN,
  LOCAL_ADMIN,
  requireRole,
  StudioUsers,
  userActor,
  visibleBrands,
  type StudioActor,
} from './studio-users.js';
import { PreviewLinks, type PreviewLink, type PreviewLinkInput } from './preview-links.js';
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
  /** Who is using the studio, and what they may do where. */
  me: { id: string; name: string; grants: StudioGrant[] };
}

export interface PreviewQuery extends LocationQuery {
  brand?: string;
  page: string;
  city?: string;
  variation?: number;
  /** RULES 18.2: the site as of this time (the live set with the versions scheduled by then), not the drafts. */
  at?: string;
}

/** A set's pages and the layouts drawn from them. */
interface SetView {
  repo: SegmentRepository;
  layout: LayoutService;
}

/** A set the preview draws from: the drafts, or the site as of a time; no view when its registry does not build. */
interface PreviewSource {
  files: SegmentFiles;
  compiled: ReturnType<typeof compileSegments>;
  view: SetView | null;
}

/**
 * The sets of the site as of a time kept built, the most recently drawn: each is built once and never changed, so
 * previews of two times asked at once each draw their own (RULES 18.2).
 */
const AS_OF_VIEWS = 4;

export interface PreviewAnswer {
  layout: LayoutResponse;
  rows: PreviewRow[];
  variant: string | null;
  problems: SegmentProblem[];
}

/** RULES 18.3: what opening a link that is not (or no longer) a good one answers, whatever was wrong with it. */
const linkNotFound = () =>
  new AppError(404, 'preview_link_not_found', 'This preview link is not valid: it may have expired or been revoked');

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
  /** RULES 18.4: the studio's users and their rights. */
  readonly users: StudioUsers;
  /** RULES 18.5: who did what. */
  readonly audit: SegmentAudit;
  /** RULES 18.2: versions to be published at a time. */
  readonly schedule: SegmentSchedule;
  /** RULES 18.3: links to a preview for people without a studio key. */
  readonly links: PreviewLinks;
  /** The site as of a time, for the preview: one view per set (by digest), the most recently drawn last. */
  private readonly asOfViews = new Map<string, SetView & { compiled: ReturnType<typeof compileSegments> }>();

  constructor(
    private readonly options: {
      draftsDir: string;
      /** Where users, the audit log, schedules and preview links are kept. */
      records: RecordStores;
      publisher: SegmentPublisher;
      live: SegmentRepository;
      engine: () => SearchEngine;
      flags: FlagService;
      logger: Logger;
      rowDeadlineMs: number;
      /** Signs preview links: derived from the session secret (`previewLinkKey`), the same on every node. */
      linkKey: Uint8Array;
      /** The clock preview links are made and checked by, and schedules are told ahead by (tests move it). */
      now?: () => number;
    },
  ) {
    this.drafts = new SegmentRepository(options.draftsDir);
    this.users = new StudioUsers(options.records);
    this.audit = new SegmentAudit(options.records);
    this.schedule = new SegmentSchedule({
      records: options.records,
      publisher: options.publisher,
      audit: this.audit,
      logger: options.logger,
      ...(options.now ? { now: options.now } : {}),
    });
    this.links = new PreviewLinks({
      records: options.records,
      key: options.linkKey,
      ...(options.now ? { now: options.now } : {}),
    });
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

  /** The brands of the drafts (or of the live set while the drafts' registry is broken). */
  private brandIds(compiled: ReturnType<typeof compileSegments>): string[] {
    return (compiled.registry ?? this.options.live.current.registry).brands.map((b) => b.id);
  }

  /** Whether the actor may see a file: one of their brands', or the registry, which every studio user reads. */
  private seesFile(seen: ReadonlySet<string>, file: string): boolean {
    return seen.has(EVERY_BRAND) || file === REGISTRY_FILE || seen.has(brandOfFile(file));
  }

  async state(actor: StudioActor): Promise<StudioState> {
    const { files: all, compiled } = await this.refresh();
    const seen = visibleBrands(actor, this.brandIds(compiled));
    const sees = (file: string) => this.seesFile(seen, file);
    const files = new Map([...all].filter(([file]) => sees(file)));
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
      removed: [...live.keys()].filter((f) => !all.has(f) && sees(f)).sort(),
      problems: compiled.problems.filter((p) => sees(p.file)),
      skipped: compiled.skipped.filter((p) => sees(p.file)),
      brands: registry.brands.filter((b) => seen.has(b.id)).map((b) => ({ id: b.id, name: b.name, theme: b.theme })),
      pages: [
        { value: 'home', label: 'Home' },
        ...GROUP_PAGES.map((g) => ({ value: g, label: g[0]!.toUpperCase() + g.slice(1) })),
        ...CATEGORIES.filter((c) => !(GROUP_PAGES as readonly string[]).includes(c.slug)).map((c) => ({
          value: c.slug,
          label: c.name,
        })),
      ],
      me: { id: actor.id, name: actor.name, grants: actor.grants },
    };
  }

  async save(actor: StudioActor, file: string, text: string): Promise<StudioState> {
    checkDraft(file, text);
    requireRole(actor, 'editor', brandOfFile(file));
    const before = (await this.draftFiles()).get(file);
    const target = path.join(this.options.draftsDir, file);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temp, text);
    await rename(temp, target);
    if (before !== text)
      await this.audit.record(actor, {
        action: 'save',
        brands: [brandOfFile(file)],
        summary: `${before === undefined ? 'added' : 'saved'} the draft ${file}`,
        diff: setDiff(before === undefined ? {} : { [file]: before }, { [file]: text }),
      });
    return this.state(actor);
  }

  /**
   * The problems the drafts would have with `file` as `text`, without saving it: what the studio's editor
   * marks as the merchandiser types, the same problems `check` reports.
   */
  async check(actor: StudioActor, file: string, text: string): Promise<Pick<StudioState, 'problems' | 'skipped'>> {
    checkDraft(file, text);
    requireRole(actor, 'viewer', brandOfFile(file));
    const files = new Map(await this.draftFiles());
    files.set(file, text);
    const compiled = compileSegments(files);
    const seen = visibleBrands(actor, this.brandIds(compiled));
    return {
      problems: compiled.problems.filter((p) => this.seesFile(seen, p.file)),
      skipped: compiled.skipped.filter((p) => this.seesFile(seen, p.file)),
    };
  }

  /** Removes a draft: any file the drafts are read from, a stray `explore copy.json` as well as a page. */
  async remove(actor: StudioActor, file: string): Promise<StudioState> {
    if (file === REGISTRY_FILE)
      throw new AppError(400, 'invalid_path', `${REGISTRY_FILE} cannot be removed: every set needs its brand registry`);
    const drafts = await this.draftFiles();
    const before = drafts.get(file);
    if (before === undefined) {
      checkPath(file);
      throw new AppError(404, 'draft_not_found', `There is no draft ${file}`);
    }
    requireRole(actor, 'editor', brandOfFile(file));
    await unlink(path.join(this.options.draftsDir, file));
    await this.audit.record(actor, {
      action: 'remove',
      brands: [brandOfFile(file)],
      summary: `removed the draft ${file}`,
      diff: setDiff({ [file]: before }, {}),
    });
    return this.state(actor);
  }

  /** The drafts of `brand` (of every brand the actor edits, when none is named) put back as they are live. */
  async discard(actor: StudioActor, brand?: string): Promise<StudioState> {
    const drafts = await this.draftFiles();
    const live = this.options.live.current.files;
    const { compiled } = await this.refresh();
    if (brand !== undefined) requireRole(actor, 'editor', brand);
    // RULES 18.4: discarding is an editor's; someone who edits no brand is refused, not told it was done.
    else if (!actor.grants.some((g) => holds(actor, 'editor', g.brand)))
      throw new AppError(
        403,
        'not_allowed',
        `${actor.name} may not discard drafts: it needs the editor role on a brand`,
      );
    const brands = new Set(
      brand !== undefined
        ? [brand]
        : [...this.brandIds(compiled), EVERY_BRAND].filter((b) => holds(actor, 'editor', b)),
    );
    // An editor of every brand discards everything, files in folders that are no brand's included.
    const touched = (file: string) => brands.has(brandOfFile(file)) || (brand === undefined && brands.has(EVERY_BRAND));
    const next = new Map([...drafts].filter(([file]) => !touched(file)));
    for (const [file, text] of live) if (touched(file)) next.set(file, text);
    const diff = setDiff(drafts, next);
    // Only the files discarded are written or removed: a draft of another brand (saved meanwhile, or a stray
    // `explore copy.json`) stays as it is.
    await this.writeDrafts(drafts, next);
    if (diff)
      await this.audit.record(actor, {
        action: 'discard',
        brands: brandsOfChange(drafts, next),
        summary: 'discarded draft changes',
        diff,
      });
    return this.state(actor);
  }

  /**
   * The drafts that differ between `before` and `after` written (each whole: staged beside it, then renamed into
   * place), and those `after` has not removed, with brand folders left empty.
   */
  private async writeDrafts(before: SegmentFiles, after: SegmentFiles): Promise<void> {
    const dir = this.options.draftsDir;
    const { added, changed, removed } = setChanges(before, after);
    const staged: [string, string][] = [];
    for (const file of [...added, ...changed]) {
      const target = path.join(dir, file);
      await mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temp, after.get(file)!);
      staged.push([temp, target]);
    }
    for (const [temp, target] of staged) await rename(temp, target);
    for (const file of removed) {
      await unlink(path.join(dir, file)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      if (file.includes('/')) await rmdir(path.join(dir, path.dirname(file))).catch(() => {});
    }
  }

  /** What the drafts change against the live set, in the files the actor may see. */
  async diff(actor: StudioActor): Promise<string> {
    const { compiled } = await this.refresh();
    const seen = visibleBrands(actor, this.brandIds(compiled));
    const only = (files: SegmentFiles) => new Map([...files].filter(([f]) => this.seesFile(seen, f)));
    return setDiff(only(this.options.live.current.files), only(await this.draftFiles()));
  }

  /**
   * The set a publish would make live: the whole drafts, or, for one brand, the live set with that brand's draft
   * files in place of its live ones.
   */
  async publishable(brand?: string): Promise<SegmentFiles> {
    const drafts = await this.draftFiles();
    return brand === undefined ? drafts : overlayBrand(this.options.live.current.files, drafts, brand);
  }

  /** RULES 18.4: publishing needs the publisher role on every brand whose files the publish changes. */
  async publish(actor: StudioActor, input: PublishInput & { brand?: string }): Promise<VersionSummary> {
    const files = await this.publishable(input.brand);
    const live = this.options.live.current.files;
    requireRole(actor, 'publisher', input.brand ?? brandsOfChange(live, files));
    if (input.brand !== undefined) requireRole(actor, 'publisher', brandsOfChange(live, files));
    const published = await this.options.publisher
      .publish(files, { note: input.note, author: actor.name })
      .catch(refusedFor(actor));
    await this.audit.published(actor, { before: live, after: files, version: published });
    return this.summary(published.version);
  }

  private async summary(n: number): Promise<VersionSummary> {
    const { diff: _diff, ...summary } = await this.options.publisher.version(n);
    return summary;
  }

  /** A page drawn from the drafts, as a shopper at that place (in that variation) would see it. */
  async preview(actor: StudioActor, query: PreviewQuery): Promise<PreviewAnswer> {
    return (await this.draw(actor, query)).answer;
  }

  /** The preview, and the brand it was drawn for (as the set drawn from has it). */
  private async draw(actor: StudioActor, query: PreviewQuery): Promise<{ answer: PreviewAnswer; brand: Brand }> {
    const source = query.at === undefined ? await this.draftSource() : await this.asOfSource(new Date(query.at));
    const { files, compiled, view } = source;
    // RULES 18.4: the problems of files of brands the actor does not see are counted, never shown.
    const problems = ownProblems(actor, compiled.problems);
    if (!compiled.registry || !view)
      throw new AppError(
        422,
        'draft_invalid',
        `${REGISTRY_FILE} has problems: no page can be drawn${problems.note}`,
        problems.shown,
      );
    const { repo, layout: drawer } = view;
    requireRole(actor, 'viewer', query.brand ?? repo.defaultBrand.id);
    const brand = repo.brand(query.brand ?? repo.defaultBrand.id);
    if (!brand)
      throw new AppError(
        404,
        'brand_not_found',
        `No brand "${query.brand}" in ${query.at === undefined ? 'the drafts' : 'that set'}`,
      );
    const request: PageRequest = query.page === 'home' ? { page: 'home' } : { page: 'category', slug: query.page };
    const segmentPage = drawer.pageFor(request);
    const { page } = segmentPage;
    const variant =
      query.variation === undefined
        ? undefined
        : forcedVariant(this.options.flags, await this.brandExperiments(brand.id), brand.id, page, query.variation);
    const resolved = repo.page(brand.id, page, variant);
    if (!resolved || !compiled.pages.has(pageKey(brand.id, page))) {
      throw new AppError(
        422,
        'draft_invalid',
        `The ${query.page} page of ${brand.id} cannot be drawn from the drafts: fix the problems first${problems.note}`,
        problems.shown,
      );
    }
    // A variation with a file of its own that does not build is not drawn as the base page in its place.
    const variantFile = variant && `${pageKey(brand.id, page, variant)}.json`;
    if (variantFile && files.has(variantFile) && !compiled.pages.has(pageKey(brand.id, page, variant))) {
      throw new AppError(
        422,
        'draft_invalid',
        `${variantFile} has problems: the ${variant} variation cannot be drawn until they are fixed`,
        problems.shown,
      );
    }
    const location = await previewPlace(query, this.options.engine());
    const timings = new Map<string, number>();
    const layout = await drawer.layout(request, brand, location, {
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
    return { answer: { layout, rows, variant: variant ?? null, problems: problems.shown }, brand };
  }

  private async draftSource(): Promise<PreviewSource> {
    const { files, compiled } = await this.refresh();
    return { files, compiled, view: compiled.registry ? { repo: this.drafts, layout: this.layout } : null };
  }

  /**
   * RULES 18.2: the site as shoppers will see it at `at`, once the versions scheduled by then are live. Each set is
   * drawn from a view of its own, so a preview of another time asked meanwhile never changes the pages under it.
   */
  private async asOfSource(at: Date): Promise<PreviewSource> {
    const { files } = await this.schedule.asOf(at);
    const digest = filesDigest(files);
    const kept = this.asOfViews.get(digest);
    if (kept) {
      this.asOfViews.delete(digest);
      this.asOfViews.set(digest, kept);
      return { files, compiled: kept.compiled, view: kept };
    }
    const compiled = compileSegments(files);
    if (!compiled.registry) return { files, compiled, view: null };
    const repo = new SegmentRepository(`${this.options.draftsDir}.as-of`);
    repo.use(files);
    const view = {
      repo,
      compiled,
      layout: new LayoutService({
        segments: repo,
        engine: this.options.engine,
        logger: this.options.logger,
        rowDeadlineMs: this.options.rowDeadlineMs,
      }),
    };
    this.asOfViews.set(digest, view);
    for (const old of this.asOfViews.keys()) if (this.asOfViews.size > AS_OF_VIEWS) this.asOfViews.delete(old);
    return { files, compiled, view };
  }

  /**
   * RULES 18.2: schedules the drafts (one brand's, when named) to be published at `at`, on top of the site as it
   * will be then; needs the publisher role on every brand it changes.
   */
  async scheduleDrafts(
    actor: StudioActor,
    input: { note: string; at: string; brand?: string | undefined },
  ): Promise<ScheduleSummary> {
    const at = new Date(input.at);
    const { files: base } = await this.schedule.asOf(at);
    const drafts = await this.draftFiles();
    const files = input.brand === undefined ? drafts : overlayBrand(base, drafts, input.brand);
    const brands = brandsOfChange(base, files);
    requireRole(actor, 'publisher', input.brand === undefined ? brands : [input.brand, ...brands]);
    const scheduled = await this.schedule
      .schedule({ files, base, at, note: input.note, author: actor })
      .catch(refusedFor(actor));
    return scheduleSummary(scheduled);
  }

  /** The scheduled versions touching brands the actor sees (one brand's, when named). */
  async schedules(actor: StudioActor, brand?: string): Promise<ScheduleSummary[]> {
    if (brand !== undefined) requireRole(actor, 'viewer', brand);
    const { compiled } = await this.refresh();
    const seen = brand !== undefined ? new Set([brand]) : visibleBrands(actor, this.brandIds(compiled));
    // RULES 18.4: a schedule of several brands lists the changes to files the actor sees only.
    const sees = (file: string) => this.seesFile(seen, file);
    return (await this.schedule.list())
      .filter((s) => s.brands.some((b) => seen.has(b)) || s.brands.length === 0)
      .map(scheduleSummary)
      .map((s) => ({
        ...s,
        changes: {
          added: s.changes.added.filter(sees),
          changed: s.changes.changed.filter(sees),
          removed: s.changes.removed.filter(sees),
        },
        // Why it was not published may name another brand's file or problem: said in general words then.
        ...(s.reason && !s.brands.every((b) => seen.has(b) || seen.has(EVERY_BRAND))
          ? { reason: 'it no longer applied when due (the reason concerns files of brands you do not see)' }
          : {}),
      }));
  }

  async unschedule(actor: StudioActor, id: string): Promise<ScheduleSummary> {
    const found = await this.schedule.get(id);
    // One of another brand's is, to this user, not there: a 404 as for an id never made, not a 403 naming its brand.
    if (found.brands.length > 0 && !found.brands.some((b) => holds(actor, 'viewer', b)))
      throw new AppError(404, 'schedule_not_found', `There is no scheduled version ${id}`);
    requireRole(actor, 'publisher', found.brands);
    return scheduleSummary(await this.schedule.cancel(id, actor));
  }

  /**
   * RULES 18.3: a link to a preview, for anyone who has it and no studio key, for `days`; needs the editor role on
   * the brand. The page is drawn once first, so a link that could not open (an unknown ZIP or city, a variation
   * the page has not, drafts that do not build) is refused now with its reason.
   */
  async makeLink(
    actor: StudioActor,
    input: PreviewLinkInput & { days: number },
    origin: string,
  ): Promise<{ id: string; url: string; expires: string }> {
    requireRole(actor, 'editor', input.brand);
    const { days, ...shown } = input;
    await this.preview(actor, linkQuery(shown));
    const { link, token } = await this.links.make(shown, actor, days);
    await this.audit.record(actor, {
      action: 'preview-link',
      brands: [link.brand],
      summary: `made preview link ${link.id}: ${describeLink(link)}, until ${link.expiresAt}`,
    });
    return { id: link.id, url: previewUrl(origin, token), expires: link.expiresAt };
  }

  /**
   * The preview links of the brands the actor sees (of one brand, which they must see, when named), newest first;
   * each open one with its address for those who may make links on its brand.
   */
  async previewLinks(actor: StudioActor, origin: string, brand?: string): Promise<PreviewLinkView[]> {
    if (brand !== undefined) requireRole(actor, 'viewer', brand);
    const { compiled } = await this.refresh();
    const seen = brand !== undefined ? new Set([brand]) : visibleBrands(actor, this.brandIds(compiled));
    const links = (await this.links.list()).filter((l) => seen.has(l.brand) || seen.has(EVERY_BRAND));
    return Promise.all(
      links.map(async (link) =>
        linkView(
          link,
          holds(actor, 'editor', link.brand) && this.links.isOpen(link)
            ? previewUrl(origin, await this.links.token(link))
            : undefined,
        ),
      ),
    );
  }

  /** RULES 18.3: revokes a link at once on every node; needs the editor role on its brand. Revoking twice is fine. */
  async revokeLink(actor: StudioActor, id: string): Promise<PreviewLinkView> {
    const found = await this.links.get(id);
    // Another brand's link is, to this user, not there: the same 404 as a link never made.
    if (!found || !holds(actor, 'viewer', found.brand))
      throw new AppError(404, 'preview_link_not_found', `There is no preview link ${id}`);
    requireRole(actor, 'editor', found.brand);
    const done = await this.links.revoke(id, actor);
    if (!done) throw new AppError(404, 'preview_link_not_found', `There is no preview link ${id}`);
    if (done.revoked)
      await this.audit.record(actor, {
        action: 'revoke-link',
        brands: [done.link.brand],
        summary: `revoked preview link ${id}: ${describeLink(done.link)}`,
      });
    return linkView(done.link);
  }

  /** Whether a token opens a link now (its page is served only then). */
  async opensLink(token: string): Promise<boolean> {
    const link = await this.links.open(token);
    return link !== null && (await this.makerMayStill(link));
  }

  /**
   * RULES 18.3: the preview a link shows, drawn now: the drafts as they are (the site as of its time, with one),
   * with the rights of a viewer of its brand alone, so nothing else of the studio is reachable through it. The
   * problems listed are its brand's only; a refusal carries its reason and none of the drafts' problems.
   */
  async sharedPreview(token: string): Promise<SharedPreviewView> {
    const link = await this.links.open(token);
    if (!link || !(await this.makerMayStill(link))) throw linkNotFound();
    const viewer: StudioActor = {
      id: `preview-link:${link.id}`,
      name: 'a preview link',
      grants: [{ brand: link.brand, role: 'viewer' }],
    };
    let drawn: { answer: PreviewAnswer; brand: Brand };
    try {
      drawn = await this.draw(viewer, linkQuery(link));
    } catch (err) {
      if (err instanceof AppError) throw new AppError(err.status, err.code, err.message);
      throw err;
    }
    const { answer, brand } = drawn;
    const seen = new Set([link.brand]);
    return {
      ...answer,
      problems: answer.problems.filter((p) => this.seesFile(seen, p.file)),
      link: {
        brand: { id: brand.id, name: brand.name, theme: brand.theme },
        page: link.page,
        variation: link.variation,
        at: link.at,
        expires: link.expiresAt,
      },
    };
  }

  /** A link lasts while its maker may make it: removing the user, or their editor role on the brand, ends it. */
  private async makerMayStill(link: PreviewLink): Promise<boolean> {
    const maker = link.createdBy.id;
    if (maker === KEY_ADMIN.id || maker === LOCAL_ADMIN.id) return true;
    const user = await this.users.get(maker);
    return user !== null && holds(userActor(user), 'editor', link.brand);
  }

  /** The experiments that swap a page's layout, with their split and the rule that assigns guests. */
  async experiments(actor: StudioActor, brandId?: string): Promise<ExperimentView[]> {
    const { compiled } = await this.refresh();
    const brand = brandId ?? (compiled.registry ?? this.options.live.current.registry).defaultBrand;
    requireRole(actor, 'viewer', brand);
    return this.brandExperiments(brand);
  }

  private async brandExperiments(brand: string): Promise<ExperimentView[]> {
    // From the drafts' files, not their built pages: drafts whose first version has a broken registry have none.
    const { files } = await this.refresh();
    return pageExperiments(this.options.flags.payload(), files, brand);
  }

  /**
   * The published versions, as far as the actor's brands go: for one brand (which they must see), or for every
   * brand they see; each version's changes are those in files they see, and versions changing none are left out.
   */
  async versions(actor: StudioActor, brand?: string) {
    if (brand !== undefined) requireRole(actor, 'viewer', brand);
    const { compiled } = await this.refresh();
    const seen = brand !== undefined ? new Set([brand]) : visibleBrands(actor, this.brandIds(compiled));
    const sees = (file: string) => this.seesFile(seen, file) && (brand === undefined || brandOfFile(file) === brand);
    const history = await this.options.publisher.history();
    const versions = history.versions
      .map((v) => ({
        ...v,
        changes: {
          added: v.changes.added.filter(sees),
          changed: v.changes.changed.filter(sees),
          removed: v.changes.removed.filter(sees),
        },
      }))
      .filter(
        (v) =>
          v.version === history.live ||
          v.changes.added.length + v.changes.changed.length + v.changes.removed.length > 0,
      );
    return { live: history.live, versions };
  }

  /** One version with its diff, in the files the actor sees; 403 for a version that changed none of them. */
  async version(actor: StudioActor, n: number) {
    const { compiled } = await this.refresh();
    const seen = visibleBrands(actor, this.brandIds(compiled));
    const sees = (file: string) => this.seesFile(seen, file);
    const version = await this.options.publisher.version(n);
    const before = n > 1 ? await this.options.publisher.files(n - 1).catch(() => new Map<string, string>()) : new Map();
    const after = await this.options.publisher.files(n);
    const changed = changedFiles(before, after);
    if (changed.length > 0 && !changed.some(sees))
      requireRole(
        actor,
        'viewer',
        brandsOfFiles(changed).filter((b) => !seen.has(b)),
      );
    const only = (files: SegmentFiles) => new Map([...files].filter(([f]) => sees(f)));
    const filter = (list: string[]) => list.filter(sees);
    return {
      ...version,
      changes: {
        added: filter(version.changes.added),
        changed: filter(version.changes.changed),
        removed: filter(version.changes.removed),
      },
      diff: setDiff(only(before), only(after)),
    };
  }

  /**
   * Publishes version `n` again. Drafts that held nothing but the set live until now follow it, so the next
   * publish starts from what shoppers see rather than quietly undoing the restore; drafts with changes of
   * their own keep them (the diff shows them against the restored set).
   */
  async restore(actor: StudioActor, n: number, input: Partial<PublishInput>): Promise<VersionSummary> {
    const live = this.options.live.current.files;
    const old = await this.options.publisher.files(n);
    // RULES 18.4: a rollback changes what is live as a publish does, and asks for the same role.
    requireRole(actor, 'publisher', brandsOfChange(live, old));
    const drafts = await this.draftFiles();
    const unchanged = filesDigest(drafts) === filesDigest(live);
    const restored = await this.options.publisher.restore(n, { ...input, author: actor.name }).catch(refusedFor(actor));
    // Only the files the restore changed: a draft saved meanwhile stays as saved.
    if (unchanged) await this.writeDrafts(drafts, this.options.live.current.files);
    await this.audit.published(actor, { before: live, after: old, version: restored, restoredFrom: n });
    return this.summary(restored.version);
  }

  /** RULES 18.5: the audit log, as far as the actor's brands go (one brand, which they must see, when named). */
  async auditLog(actor: StudioActor, brand?: string) {
    if (brand !== undefined) requireRole(actor, 'viewer', brand);
    const { compiled } = await this.refresh();
    const seen = brand !== undefined ? new Set([brand]) : visibleBrands(actor, this.brandIds(compiled));
    // The registry is every brand's: its entries are shown to every studio user.
    const entries = await this.audit.recent({ brands: new Set([...seen, EVERY_BRAND]) });
    // RULES 18.4: an entry touching several brands shows the diff of the files the actor sees only.
    return entries.map((entry) => {
      if (entry.diff === undefined) return entry;
      const { diff, ...rest } = entry;
      const shown = diffOfFiles(diff, (file) => this.seesFile(seen, file));
      return shown ? { ...rest, diff: shown } : rest;
    });
  }

  /** The catalog changed: previews draw their rows afresh (they are few; dropping them all is simplest). */
  catalogChanged(): void {
    this.layout.clearCache();
    for (const view of this.asOfViews.values()) view.layout.clearCache();
  }
}

/**
 * RULES 18.4: of a set's problems, those in files the actor sees (their brands' and the registry); the others are
 * only counted, in a note for the message they come with.
 */
function ownProblems(actor: StudioActor, problems: readonly SegmentProblem[]) {
  const shown = problems.filter((p) => p.file === REGISTRY_FILE || holds(actor, 'viewer', brandOfFile(p.file)));
  const hidden = problems.length - shown.length;
  const note =
    hidden === 0
      ? ''
      : ` (${hidden} of the problems ${hidden === 1 ? 'is' : 'are'} in files of other brands, not listed here)`;
  return { shown, note };
}

/** A refusal listing the set's problems (`draft_invalid`), with those of files the actor does not see left out. */
const refusedFor =
  (actor: StudioActor) =>
  (err: unknown): never => {
    if (err instanceof AppError && err.code === 'draft_invalid' && Array.isArray(err.details)) {
      const problems = ownProblems(actor, err.details as SegmentProblem[]);
      throw new AppError(err.status, err.code, `${err.message}${problems.note}`, problems.shown);
    }
    throw err;
  };

/** The preview query a link draws. */
function linkQuery(link: PreviewLinkInput): PreviewQuery {
  return {
    brand: link.brand,
    page: link.page,
    ...(link.place ?? {}),
    ...(link.variation !== null ? { variation: link.variation } : {}),
    ...(link.at !== null ? { at: link.at } : {}),
  };
}

/** `/preview/<token>` on the storefront's origin. */
const previewUrl = (origin: string, token: string) => `${origin}/preview/${token}`;

/** What a link shows, in words, for the audit log. */
function describeLink(link: PreviewLink): string {
  const place = !link.place
    ? ''
    : link.place.zip
      ? ` at ZIP ${link.place.zip}`
      : link.place.city
        ? ` in ${link.place.city}`
        : ` at ${link.place.lat}, ${link.place.lng}`;
  const variation = link.variation === null ? '' : `, variation ${link.variation}`;
  const what = link.at === null ? 'the drafts' : `the site as of ${link.at}`;
  return `the ${link.page} page of ${link.brand}${place}${variation}, from ${what}`;
}

function linkView(link: PreviewLink, url?: string): PreviewLinkView {
  return {
    id: link.id,
    brand: link.brand,
    page: link.page,
    place: link.place,
    variation: link.variation,
    at: link.at,
    createdBy: link.createdBy,
    createdAt: link.createdAt,
    expires: link.expiresAt,
    revoked: link.revokedAt ?? null,
    ...(url !== undefined ? { url } : {}),
  };
}

/** `base` with one brand's files as `drafts` has them. */
function overlayBrand(base: SegmentFiles, drafts: SegmentFiles, brand: string): SegmentFiles {
  const ours = (file: string) => brandOfFile(file) === brand;
  const next = new Map([...base].filter(([file]) => !ours(file)));
  for (const [file, text] of drafts) if (ours(file)) next.set(file, text);
  return next;
}
