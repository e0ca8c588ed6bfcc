import { z } from './zod.js';
import { doc } from './editor-doc.js';

/**
 * One rule of a GrowthBook feature: a fixed value for the guests it matches, or an experiment that splits them
 * between variations.
 */

/** GrowthBook treats weights off by more than this as a mistake and splits evenly instead. */
export const WEIGHT_SUM_TOLERANCE = 0.01;

export const VariationMetaSchema = z
  .looseObject({
    key: z
      .string()
      .min(1)
      .optional()
      .meta(
        doc('The variation\'s key in experiment results; GrowthBook uses its index ("0", "1", …) when absent.', [
          '0',
          '1',
        ]),
      ),
    name: z
      .string()
      .optional()
      .meta(doc('A readable name for the variation, shown in analytics.', ['base', 'promos'])),
    passthrough: z
      .boolean()
      .optional()
      .meta(
        doc("true for a holdout variation: the guest is counted in it but gets the feature's default value.", [false]),
      ),
  })
  .meta(doc('Names one variation, in the order of `variations`.', [{ key: '1', name: 'promos' }]));

export const FlagRuleSchema = z
  .looseObject({
    id: z
      .string()
      .optional()
      .meta(doc("The rule's id in GrowthBook; only for reading, the SDK ignores it.", ['home-layout-experiment'])),
    condition: z
      .record(z.string(), z.unknown())
      .optional()
      .meta(
        doc(
          "Who the rule applies to, as a MongoDB-style query on the guest's " +
            'attributes: id, brand, deviceType (mobile, tablet, desktop) and url. ' +
            'Absent: everyone.',
          [{ brand: 'encore' }, { deviceType: { $in: ['mobile', 'tablet'] } }],
        ),
      ),
    force: z
      .json()
      .optional()
      .meta(
        doc(
          'Gives every guest the rule matches this value, of the same type as ' +
            'defaultValue. A rule has either force or variations.',
          [true, 'promos'],
        ),
      ),
    variations: z
      .array(z.json())
      .min(2, 'an experiment needs at least 2 variations')
      .optional()
      .meta(
        doc(
          'Makes the rule an experiment: the values guests are split between, at ' +
            'least 2, each of the same type as defaultValue. The first is the ' +
            'control.',
          [
            ['base', 'promos'],
            [false, true],
          ],
        ),
      ),
    weights: z
      .array(z.number().min(0).max(1))
      .optional()
      .meta(
        doc(
          'The share of the experiment each variation gets, one number from 0 to 1 ' +
            'per variation, adding up to 1. Absent: an even split.',
          [[0.5, 0.5]],
        ),
      ),
    key: z
      .string()
      .min(1)
      .optional()
      .meta(
        doc(
          "The experiment's tracking key, reported with every exposure and used in " +
            '?gb_force=<key>:<index> to force a variation. Default: the feature key.',
          ['home-layout', 'ab-search'],
        ),
      ),
    name: z
      .string()
      .optional()
      .meta(doc('A readable name for the experiment, shown in analytics.', ['Home layout', 'Alternate suggester'])),
    coverage: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .meta(
        doc(
          'The share of matching guests put in the experiment, 0 to 1; the rest get ' +
            'the default value. Default 1. 0 runs it for nobody but forced guests ' +
            '(QA).',
          [1, 0],
        ),
      ),
    hashAttribute: z
      .string()
      .min(1)
      .optional()
      .meta(
        doc(
          "The attribute that decides a guest's variation, so the same guest " +
            'always gets the same one. Default "id" (the guest id).',
          ['id'],
        ),
      ),
    hashVersion: z
      .union([z.literal(1), z.literal(2)])
      .optional()
      .meta(doc("GrowthBook's hashing algorithm: 1 (legacy) or 2 (recommended, better spread).", [2])),
    seed: z
      .string()
      .optional()
      .meta(
        doc(
          'Hashed with the attribute to pick the variation; changing it reshuffles ' +
            'guests. Default: the experiment key.',
          ['home-layout'],
        ),
      ),
    meta: z
      .array(VariationMetaSchema)
      .optional()
      .meta(
        doc('One entry per variation, in the same order: its key and name for analytics.', [
          [
            { key: '0', name: 'base' },
            { key: '1', name: 'promos' },
          ],
        ]),
      ),
  })
  .superRefine((rule, ctx) => {
    const forces = 'force' in rule;
    const experiment = rule.variations !== undefined;
    if (forces && experiment) {
      ctx.addIssue({
        code: 'custom',
        path: ['variations'],
        message: 'a rule has either `force` or `variations`, not both',
      });
    }
    if (!forces && !experiment && !('contextualVariations' in rule)) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'a rule needs `force` (a fixed value) or `variations` (an experiment)',
      });
    }
    if (!rule.variations) return;
    const n = rule.variations.length;
    if (rule.weights) {
      if (rule.weights.length !== n) {
        ctx.addIssue({
          code: 'custom',
          path: ['weights'],
          message: `${rule.weights.length} weights for ${n} variations`,
        });
      } else {
        const sum = rule.weights.reduce((a, b) => a + b, 0);
        if (Math.abs(sum - 1) > WEIGHT_SUM_TOLERANCE) {
          ctx.addIssue({ code: 'custom', path: ['weights'], message: `weights add up to ${sum}, not 1` });
        }
      }
    }
    if (rule.meta && rule.meta.length !== n) {
      ctx.addIssue({ code: 'custom', path: ['meta'], message: `${rule.meta.length} meta entries for ${n} variations` });
    }
  })
  .meta(
    doc(
      'A force rule (force: one value for the guests it matches) or an ' +
        'experiment rule (variations, weights, coverage…). Other GrowthBook rule ' +
        'fields, such as ranges, namespace, filters or parentConditions, pass ' +
        'through unchanged.',
      [{ condition: { brand: 'encore' }, force: true }],
    ),
  );
