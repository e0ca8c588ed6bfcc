import type { Brand, BrandRegistry } from '../../shared/schemas/brand-registry.js';
import type { PageName } from '../../shared/schemas/segments.js';
import { formatProblem, type SegmentProblem } from './segment-problems.js';
import { compileSegments, pageKey, readSegmentDir, type ResolvedPage, type SegmentFiles } from './segment-set.js';
import type { WarnLogger } from '../../shared/logger.js';

export interface SegmentSnapshot {
  registry: BrandRegistry;
  pages: ReadonlyMap<string, ResolvedPage>;
  /** The files the pages were built from. */
  files: SegmentFiles;
  loadedAt: string;
}

/**
 * The segment set shoppers are served, in memory: built from a folder of files (`load()`) or from a published
 * version (`use()`), and swapped in whole, so a request sees one set from start to end.
 */
export class SegmentRepository {
  private snapshot: SegmentSnapshot | null = null;
  private problems: SegmentProblem[] = [];
  /** The published version being served (set by the publisher); null before the store has named one. */
  version: number | null = null;
  private readonly swapListeners: (() => void)[] = [];

  constructor(
    readonly dir: string,
    private readonly logger?: WarnLogger,
  ) {}

  /** Reads the folder's files; throws only when there is nothing to serve at all. */
  async load(): Promise<SegmentSnapshot> {
    return this.use(await readSegmentDir(this.dir));
  }

  /**
   * Builds the pages of `files` and serves them from now on; throws, keeping what was served, when none can be built.
   */
  use(files: SegmentFiles): SegmentSnapshot {
    const { registry, pages, problems } = compileSegments(files);
    if (!registry) throw new Error(`segments: ${problems.map(formatProblem).join('; ')}`);
    this.problems = problems;
    const replaced = this.snapshot !== null;
    this.snapshot = { registry, pages, files, loadedAt: new Date().toISOString() };
    if (replaced) for (const listener of this.swapListeners) listener();
    for (const p of problems)
      this.logger?.warn(
        { file: p.file, line: p.line, column: p.column, path: p.path },
        `segment rejected: ${p.message}`,
      );
    return this.snapshot;
  }

  /** Calls `listener` each time a new set replaces the one served (a publish, a reload). */
  onSwap(listener: () => void): void {
    this.swapListeners.push(listener);
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

  /** `brandBySiteId` as a function of its own, made once: every API request's site id is looked up with it. */
  readonly siteLookup = (siteId: number): Brand | undefined => this.brandBySiteId(siteId);

  get defaultBrand(): Brand {
    return this.brand(this.current.registry.defaultBrand)!;
  }

  /** The brand's page, in the experiment variation asked for when the brand has one, else the default. */
  page(brand: string, page: PageName, variant?: string): ResolvedPage | undefined {
    return (
      (variant && this.current.pages.get(pageKey(brand, page, variant))) || this.current.pages.get(pageKey(brand, page))
    );
  }
}
