import { answerBytes, byteBounded, CACHE_BYTES, roughBytes, type BoundedCache } from '../cache/byte-bounded.js';
import { z } from 'zod';
import { HOME_LAYOUT_FEATURE } from '../../shared/schemas/storefront-features.js';
import type { Brand } from '../../shared/schemas/brand-registry.js';
import { TagIndex } from '../cache/tag-index.js';
import { FORCE_PARAM, type FlagService } from '../flags/flag-service.js';
import { deviceTypeFromUserAgent } from '../../shared/rules/device-type.js';
import { replayableJson, type ReplayableAnswer } from '../http/replayable.js';
import type { SearchService } from '../search/search-service.js';
import type { SegmentRepository } from '../segments/segment-repository.js';
import type { LayoutService, PageRequest, SegmentPage } from './layout-service.js';
import { LocationQuerySchema, resolveLocation } from './location-lookup.js';
import { BrandParamSchema, requestedBrand } from './request-context.js';
import type { LocationQuery } from '../../shared/rules/location.js';

export const LayoutQuerySchema = LocationQuerySchema.and(
  z.object({
    brand: BrandParamSchema.optional(),
    [FORCE_PARAM]: z.unknown().optional(),
  }),
);

/*
 * Whole layout answers, serialised once: the same page for the same brand, place and experiment variation is
 * the same bytes for a minute (the row cache's lifetime), sent with a precomputed ETag so a repeat costs
 * neither building, serialising nor hashing. Kept up to `CACHE_BYTES.layoutAnswers`.
 */
const LAYOUT_HEADERS = { cacheControl: 'private, max-age=60', vary: ['X-Site-Id', 'Authorization'] } as const;

export interface Experiment {
  variant: string | undefined;
  experiments: { key: string; variationId: string }[];
  /** The guest's variations in GrowthBook's force syntax (`home-layout:1`), when an experiment put them in one. */
  assignment?: string;
}

/*
 * Guests' assignments are remembered (up to `CACHE_BYTES.assignments`): evaluating GrowthBook's rules costs as much
 * as sending the answer.
 */

export const NO_EXPERIMENT: Experiment = Object.freeze({
  variant: undefined,
  experiments: Object.freeze([]) as unknown as Experiment['experiments'],
});

/** The tag of the answers (layout answers, rendered pages) built from a row. */
export const rowTag = (rowKey: string) => `row:${rowKey}`;

/** What a layout request is read from, by the API route or the page renderer. */
export interface LayoutAsk {
  page: PageRequest;
  /** The layout API's query, as Express parses it (or as the page's call spells it). */
  query: Readonly<Record<string, unknown>>;
  /** The brand of the request's site (`?brand=` in the query comes first). */
  siteBrand: Brand;
  /** The verified guest, when there is one: the home experiment follows the guest (RULES 9.4). */
  guestId: string | undefined;
  userAgent: string | undefined;
  /** The layout API address as requested (path and query): GrowthBook's `url` attribute. */
  url: string;
  /**
   * A page drawn without its guest: the home-layout assignment the guest was told (the `homeLayout` cookie, in
   * GrowthBook's force syntax), applied as a forced variation unless the address forces one itself. One that no
   * longer names a variation of the current flags is no assignment: the base layout (RULES 9.4, 13.7).
   */
  assigned?: string;
}

/** A layout request resolved, once: everything its answer is made of. */
export interface LayoutRequest {
  page: PageRequest;
  /** The segment page that answers it. */
  segmentPage: SegmentPage;
  brand: Brand;
  place: LocationQuery;
  /** The experiment variation the guest sees, and the exposures the answer lists. */
  experiment: Experiment;
}

export interface LayoutAnswer {
  answer: ReplayableAnswer;
  /** Whether the answer is kept (and so may be replayed): rows that failed or were overtaken are not. */
  kept: boolean;
  /** How long it is kept for, in ms (0 when not kept). */
  ttlMs: number;
  /** The tags of the rows it was built from: a catalog change to one of them drops it. */
  tags: string[];
}

/**
 * The layout API's answers, built once and kept: the API route and the server-rendered pages read them here,
 * so a page is drawn from the very bytes `/api/layout/*` answers, and both are dropped by the same changes.
 */
export class LayoutAnswers {
  private readonly pageTags = new TagIndex();
  private readonly responses: BoundedCache<string, ReplayableAnswer>;
  private readonly assignments = byteBounded<string, Experiment>(CACHE_BYTES.assignments, (experiment) =>
    roughBytes(experiment),
  );
  private assignedWith: unknown = null;
  private readonly staleListeners: ((tags: readonly string[]) => void)[] = [];

  constructor(
    private readonly layout: LayoutService,
    private readonly segments: SegmentRepository,
    private readonly search: SearchService,
    private readonly flags: FlagService,
  ) {
    this.responses = byteBounded<string, ReplayableAnswer>(CACHE_BYTES.layoutAnswers, (a) => answerBytes(a.body), {
      ttl: layout.rowCacheTtlMs,
      dispose: (_answer, key, reason) => {
        if (reason !== 'set') this.pageTags.untag(key);
      },
    });
    // A row a catalog change makes stale takes its answers along, here and wherever they were copied.
    layout.onStaleRows((rowKeys) => {
      const tags = rowKeys.map(rowTag);
      for (const tag of tags) for (const key of this.pageTags.take(tag)) this.responses.delete(key);
      for (const listener of this.staleListeners) listener(tags);
    });
  }

  /** Calls `listener` with the row tags each catalog change makes stale (for copies kept elsewhere). */
  onStaleTags(listener: (tags: readonly string[]) => void): void {
    this.staleListeners.push(listener);
  }

  /**
   * The home-layout variation of a guest, remembered for the same guest, brand, device type and URL (forced
   * variations included) until the flag payload changes: GrowthBook's hashing gives the same answer for the
   * same inputs. The whole URL, since a rule may look at its query (a campaign's `utm_` parameters).
   * Experiments follow the guest (RULES 9.4): without a guest there is no one to assign, so the base layout,
   * unless the request forces a variation (`?home-layout=1`), which GrowthBook applies before it looks for the
   * hash attribute: a forced view needs no guest, and is no exposure.
   */
  homeExperiment(
    guestId: string | undefined,
    brand: Brand,
    userAgent: string | undefined,
    url: string,
    forced: Record<string, number>,
  ): Experiment {
    if (!guestId && Object.keys(forced).length === 0) return NO_EXPERIMENT;
    const payload = this.flags.payload();
    if (payload !== this.assignedWith) {
      this.assignments.clear();
      this.assignedWith = payload;
    }
    const deviceType = deviceTypeFromUserAgent(userAgent);
    // The forced variations belong in the key: two anonymous guests at the same address, assigned different
    // variations by their `homeLayout` cookie, are different answers. Its parts are joined by newlines, which none
    // can hold (a request target cannot).
    const forcedKey = Object.keys(forced).length > 0 ? JSON.stringify(forced) : '';
    const key = `${guestId ?? ''}\n${brand.id}\n${deviceType}\n${url}\n${forcedKey}`;
    let experiment = this.assignments.get(key);
    if (!experiment) {
      const evaluation = this.flags.evaluate({ id: guestId ?? '', brand: brand.id, deviceType, url }, forced);
      const value = evaluation.value(HOME_LAYOUT_FEATURE, 'base');
      // Shared by every request of this guest from now on: frozen, so nothing can change one for the others.
      experiment = Object.freeze({
        variant: value === 'base' ? undefined : value,
        experiments: Object.freeze(evaluation.exposures.map((e) => Object.freeze(e))) as Experiment['experiments'],
        ...(evaluation.assignment ? { assignment: evaluation.assignment } : {}),
      });
      this.assignments.set(key, experiment);
    }
    return experiment;
  }

  /**
   * Reads a layout request's inputs, checking each as the API does (a 400 for a bad place or variation, a 404 for
   * an unknown brand or page), and settles the variation its guest sees.
   */
  resolve(ask: LayoutAsk): LayoutRequest {
    const { page } = ask;
    const query = LayoutQuerySchema.parse(ask.query);
    const brand = requestedBrand(this.segments, ask.siteBrand, query.brand);
    const segmentPage = this.layout.pageFor(page);
    // GrowthBook's `?<experiment-key>=<index>` and the `gb_force` alias, checked on every layout page, with or
    // without a guest token.
    let forced = this.flags.forcedVariations(ask.query);
    if (ask.assigned && page.page === 'home' && Object.keys(forced).length === 0)
      forced = this.assignedVariations(ask.assigned);
    const experiment =
      page.page === 'home' ? this.homeExperiment(ask.guestId, brand, ask.userAgent, ask.url, forced) : NO_EXPERIMENT;
    return { page, segmentPage, brand, place: { lat: query.lat, lng: query.lng, zip: query.zip }, experiment };
  }

  /** An assignment as forced variations, or none when the current flags have no such variation. */
  private assignedVariations(assigned: string): Record<string, number> {
    try {
      return this.flags.forcedVariations({ [FORCE_PARAM]: assigned });
    } catch {
      return {};
    }
  }

  async answer(request: LayoutRequest): Promise<LayoutAnswer> {
    const { page, brand, place } = request;
    const { variant, experiments, assignment } = request.experiment;
    // Keyed by what the answer is made of, the variation and the exposures listed: a forced view (no exposure)
    // and a guest assigned the same variation (its exposure listed) are different entries, and the one a
    // plain anonymous request shares (base rows, no exposure) is the same bytes whoever asked. The fast lane and
    // the browser key by URL as well, and a forced view's URL carries its override.
    const key = JSON.stringify([
      page,
      brand.id,
      place.lat,
      place.lng,
      place.zip,
      variant,
      experiments,
      this.segments.current.loadedAt,
      this.segments.version,
    ]);
    let answer = this.responses.get(key);
    if (!answer) {
      const location = await resolveLocation(place, this.search.engine);
      const rowKeys: string[] = [];
      const invalidations = this.layout.invalidations;
      const layout = await this.layout.layout(page, brand, location, {
        segmentPage: request.segmentPage,
        variant,
        experiments,
        assignment,
        rowKeys,
      });
      answer = replayableJson(JSON.stringify(layout), LAYOUT_HEADERS);
      // Rows that timed out or failed are not worth keeping: the next shopper should get a fresh try. Nor is a
      // page that a catalog change may have overtaken while it was built, or one built while the rows a change made
      // stale were still being dropped (RULES 13.11).
      if (
        !/"status":"(timeout|error)"/.test(answer.body) &&
        this.layout.invalidations === invalidations &&
        !this.layout.invalidating
      ) {
        // An answer over a tenth of the budget is not kept, and so not tagged either.
        if (this.responses.set(key, answer).has(key)) this.pageTags.tag(key, rowKeys.map(rowTag));
      }
    }
    const kept = this.responses.has(key);
    return {
      answer,
      kept,
      ttlMs: kept ? this.responses.getRemainingTTL(key) : 0,
      tags: kept ? this.pageTags.tagsOf(key) : [],
    };
  }
}
