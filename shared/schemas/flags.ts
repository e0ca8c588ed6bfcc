import { z } from './zod.js';
import { doc } from './editor-doc.js';
import { FlagFeatureSchema } from './flag-feature.js';
import { STOREFRONT_FEATURES } from './storefront-features.js';

/**
 * `segments/flags.json`: the GrowthBook SDK payload served at `/api/features/:clientKey` (RULES 9.1). The
 * storefront checks the fields the SDK evaluates and lets every other GrowthBook field through untouched
 * (GrowthBook adds new ones over time). JSON Schema for editors is generated from these
 * (`npm run segments -- schema`).
 */

/** The character set GrowthBook allows in feature keys. */
export const FEATURE_KEY = /^[A-Za-z0-9_.:|-]+$/;

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
