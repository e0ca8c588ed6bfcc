import { z } from './zod.js';

/**
 * `segments/flags.json`: the GrowthBook SDK payload served at `/api/features/:clientKey` (spec §7). The
 * storefront checks the fields the SDK evaluates and lets every other GrowthBook field through untouched
 * (GrowthBook adds new ones over time). JSON Schema for editors is generated from these
 * (`npm run segments -- schema`).
 */

/** The character set GrowthBook allows in feature keys. */
export const FEATURE_KEY = /^[A-Za-z0-9_.:|-]+$/;
/** GrowthBook treats weights off by more than this as a mistake and splits evenly instead. */
export const WEIGHT_SUM_TOLERANCE = 0.01;

/** Editor documentation for a field: what it does, and values from the shipped file. */
const doc = (description: string, examples: readonly unknown[]) => ({ description, examples: [...examples] });

type ValueKind = 'null' | 'boolean' | 'number' | 'string' | 'json';
const kindOf = (value: unknown): ValueKind =>
  value === null ? 'null' : typeof value === 'object' ? 'json' : (typeof value as 'boolean' | 'number' | 'string');

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

export const FlagFeatureSchema = z
  .looseObject({
    defaultValue: z
      .json()
      .optional()
      .meta(
        doc("The value when no rule applies; every rule's values must be of the same type. Absent: null.", [
          'base',
          true,
          false,
        ]),
      ),
    rules: z
      .array(FlagRuleSchema)
      .optional()
      .meta(
        doc('Rules tried in order; the first that matches the guest decides the value.', [
          [],
          [
            {
              key: 'home-layout',
              variations: ['base', 'promos'],
              weights: [0.5, 0.5],
              coverage: 1,
              hashAttribute: 'id',
              hashVersion: 2,
            },
          ],
        ]),
      ),
  })
  .superRefine((feature, ctx) => {
    // A boolean flag forced to "true" (a string) would evaluate as on for everyone, whatever the string says.
    const expected = feature.defaultValue === undefined ? 'null' : kindOf(feature.defaultValue);
    if (expected === 'null') return;
    const check = (value: unknown, at: (string | number)[]) => {
      const kind = kindOf(value);
      if (kind !== 'null' && kind !== expected) {
        ctx.addIssue({ code: 'custom', path: at, message: `expected a ${expected} like defaultValue, got a ${kind}` });
      }
    };
    feature.rules?.forEach((rule, i) => {
      if ('force' in rule) check(rule.force, ['rules', i, 'force']);
      rule.variations?.forEach((v, j) => check(v, ['rules', i, 'variations', j]));
    });
  })
  .meta(
    doc('One feature: its default value and the rules that change it for some guests.', [
      { defaultValue: true, rules: [] },
    ]),
  );

const dateUpdated = z.iso
  .datetime({ offset: true })
  .meta(
    doc(
      'When the payload last changed, ISO 8601. The server replaces it with the ' +
        "file's save time, so the SDK notices every change.",
      ['2026-11-21T07:45:00.000Z'],
    ),
  );
const savedGroups = z
  .record(z.string(), z.unknown())
  .optional()
  .meta(
    doc('GrowthBook saved groups: named lists of attribute values that conditions refer to with $inGroup.', [
      { 'qa-guests': ['guest-1', 'guest-2'] },
    ]),
  );

function refuseEncrypted(payload: object, ctx: z.RefinementCtx): void {
  if ('encryptedFeatures' in payload) {
    ctx.addIssue({
      code: 'custom',
      path: ['encryptedFeatures'],
      message: 'encrypted payloads are not supported: turn encryption off for this SDK connection',
    });
  }
}

/**
 * The payload as the server checks it: the fields the SDK evaluates strictly, the rest through untouched.
 * `$schema` and other top-level fields are dropped from what is served.
 */
export const FlagPayloadSchema = z
  .looseObject({
    features: z.record(
      z.string().regex(FEATURE_KEY, 'a feature key uses letters, digits and _ . : | - only'),
      FlagFeatureSchema,
    ),
    dateUpdated,
    savedGroups,
  })
  .superRefine(refuseEncrypted);

/** The features the storefront reads, with what each does; any other key is a feature of the same shape. */
/** The feature whose value names the home page's layout variation (`<brand>/explore~<value>.json`). */
export const HOME_LAYOUT_FEATURE = 'home_layout';

export const STOREFRONT_FEATURES = {
  [HOME_LAYOUT_FEATURE]: FlagFeatureSchema.meta(
    doc(
      'The home page (Explore) layout a guest sees, read by the server: "base" ' +
        'for the brand\'s explore.json, or a variant name such as "promos" that ' +
        "has a <brand>/explore~<variant>.json file (or the default brand's). A " +
        'string. Shipped as the home-layout experiment, base against promos.',
      [
        {
          defaultValue: 'base',
          rules: [
            {
              key: 'home-layout',
              variations: ['base', 'promos'],
              weights: [0.5, 0.5],
              coverage: 1,
              hashAttribute: 'id',
              hashVersion: 2,
            },
          ],
        },
      ],
    ),
  ),
  recent_trending_search: FlagFeatureSchema.meta(
    doc(
      'true or false, read by the search box: when on and the query is empty, ' +
        'it shows recent and trending searches instead of suggestions (spec §2 ' +
        'Search dropdown, §4).',
      [{ defaultValue: true, rules: [] }],
    ),
  ),
  isABSearch: FlagFeatureSchema.meta(
    doc(
      'true or false: when on, search suggestions come from the alternate ' +
        'suggester, a JSONP call with a signed token (spec §7). Shipped as the ' +
        'ab-search experiment at coverage 0, so only guests who force it (QA) get ' +
        'it.',
      [
        {
          defaultValue: false,
          rules: [
            {
              key: 'ab-search',
              variations: [false, true],
              weights: [0.5, 0.5],
              coverage: 0,
              hashAttribute: 'id',
              hashVersion: 2,
            },
          ],
        },
      ],
    ),
  ),
} as const;

/**
 * `segments/flags.json` as an editor sees it: the payload above, with the storefront's own features named.
 * It accepts exactly what FlagPayloadSchema accepts, apart from the wording of a bad feature key's issue.
 */
export const FlagsFileSchema = z
  .looseObject({
    $schema: z
      .string()
      .optional()
      .meta(
        doc(
          'The JSON Schema editors check this file against ' +
            '(shared/schemas/json/flags.schema.json); the server ignores it and does ' +
            'not serve it.',
          ['../shared/schemas/json/flags.schema.json'],
        ),
      ),
    features: z
      .object({
        home_layout: STOREFRONT_FEATURES.home_layout.optional(),
        recent_trending_search: STOREFRONT_FEATURES.recent_trending_search.optional(),
        isABSearch: STOREFRONT_FEATURES.isABSearch.optional(),
      })
      .catchall(FlagFeatureSchema)
      .superRefine((features, ctx) => {
        for (const key of Object.keys(features)) {
          if (!FEATURE_KEY.test(key))
            ctx.addIssue({
              code: 'custom',
              path: [key],
              message: 'a feature key uses letters, digits and _ . : | - only',
            });
        }
      })
      .meta({
        ...doc(
          'Every feature by its key (letters, digits and _ . : | -). The storefront ' +
            'reads home_layout, recent_trending_search and isABSearch; other keys are ' +
            'kept and served too.',
          [{ recent_trending_search: { defaultValue: true, rules: [] } }],
        ),
        propertyNames: { pattern: FEATURE_KEY.source },
      }),
    dateUpdated,
    savedGroups,
  })
  .superRefine(refuseEncrypted);
