import type { FlagService } from '../flags/flag-service.js';
import type { FlagPayload } from '../flags/flags-file.js';
import { AppError } from '../http/errors.js';
import { HOME_LAYOUT_FEATURE } from '../../shared/schemas/storefront-features.js';
import type { PageName } from '../../shared/schemas/segments.js';
import type { SegmentFiles } from '../segments/segment-set.js';

/** The experiments whose value names a page variation, and the page they change. */
const PAGE_EXPERIMENTS: { feature: string; page: 'home'; segmentPage: PageName }[] = [
  { feature: HOME_LAYOUT_FEATURE, page: 'home', segmentPage: 'explore' },
];

export interface ExperimentView {
  key: string;
  feature: string;
  name: string;
  page: 'home';
  hashAttribute: string;
  coverage: number;
  condition: object | null;
  rule: string;
  variations: { index: number; key: string; name: string; value: string; weight: number; file: string | null }[];
}

/**
 * The experiments that swap a page's layout, with their split and the rule that assigns guests; a variation
 * names the file of `files` that draws it for `brand`.
 */
export function pageExperiments(payload: FlagPayload, files: SegmentFiles, brand: string): ExperimentView[] {
  const out: ExperimentView[] = [];
  for (const { feature, page, segmentPage } of PAGE_EXPERIMENTS) {
    for (const rule of payload.features[feature]?.rules ?? []) {
      if (!('variations' in rule) || !Array.isArray(rule.variations)) continue;
      const key = (rule.key as string | undefined) ?? feature;
      const weights = (rule.weights as number[] | undefined) ?? rule.variations.map(() => 1 / rule.variations!.length);
      const meta = (rule.meta as { key?: string; name?: string }[] | undefined) ?? [];
      const coverage = (rule.coverage as number | undefined) ?? 1;
      const hashAttribute = (rule.hashAttribute as string | undefined) ?? 'id';
      const variations = rule.variations.map((value, index) => {
        const variant = String(value);
        // A brand without a file of its own for the variation shows guests in it its base page.
        const own = [`${brand}/${segmentPage}~${variant}.json`].find((f) => files.has(f));
        return {
          index,
          key: meta[index]?.key ?? String(index),
          name: meta[index]?.name ?? variant,
          value: variant,
          weight: weights[index] ?? 0,
          file: variant === 'base' ? null : (own ?? null),
        };
      });
      const split = variations.map((v) => `${Math.round(v.weight * 100)}% ${v.name}`).join(', ');
      const condition = (rule.condition as object | undefined) ?? null;
      out.push({
        key,
        feature,
        name: (rule.name as string | undefined) ?? key,
        page,
        hashAttribute,
        coverage,
        condition,
        rule:
          `Guests are split by their ${hashAttribute === 'id' ? 'guest id' : hashAttribute} ` +
          `(hash version ${(rule.hashVersion as number | undefined) ?? 1}): ` +
          `${split}; ${Math.round(coverage * 100)}% of guests take ` +
          `part${condition ? `, only those matching ${JSON.stringify(condition)}` : ''}. ` +
          `Guests outside it see ` +
          `${String(payload.features[feature]?.defaultValue ?? 'base')}.`,
        variations,
      });
    }
  }
  return out;
}

/** The page variation a forced experiment variation shows, the way a shopper's `?<experiment>=<index>` does. */
export function forcedVariant(
  flags: FlagService,
  experiments: readonly ExperimentView[],
  brand: string,
  page: PageName,
  index: number,
): string | undefined {
  const experiment = experiments.find((e) =>
    PAGE_EXPERIMENTS.some((p) => p.feature === e.feature && p.segmentPage === page),
  );
  if (!experiment)
    throw new AppError(
      400,
      'invalid_request',
      `variation: the ${page === 'explore' ? 'home' : page} page has no experiment`,
    );
  // The same check and forcing as a shopper's `?<experiment-key>=<index>` (GrowthBook's URL override).
  const forced = { [experiment.key]: flags.variationIndex(experiment.key, index, 'variation') };
  const evaluation = flags.evaluate({ id: '', brand, deviceType: 'desktop', url: '' }, forced);
  const value = evaluation.value(experiment.feature, 'base');
  return value === 'base' ? undefined : value;
}
