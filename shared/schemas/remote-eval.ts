import { z } from './zod.js';

/**
 * The body of `POST /api/eval/:clientKey`, GrowthBook's remote evaluation, as its SDK sends it in `remoteEval`
 * mode: the user's attributes, the variations it forces, the feature values it forces (its forced-features map
 * as `[key, value]` pairs) and the page URL. Every field may be left out, as GrowthBook's proxy allows; fields
 * the SDK may add later are ignored.
 */

/** GrowthBook's proxy figure: at most this many attributes, forced variations or forced features in one request. */
export const REMOTE_EVAL_MAX_ENTRIES = 1000;

/**
 * Not a spec figure: the longest page URL taken. A URL past 8 KB would not have reached the page through
 * common proxies (nginx's header buffers are 8 KB), so only a made-up request sends one.
 */
export const REMOTE_EVAL_MAX_URL_LENGTH = 8192;

const atMost = (what: string) => `must hold at most ${REMOTE_EVAL_MAX_ENTRIES} ${what}`;

export const RemoteEvalRequestSchema = z.object(
  {
    attributes: z
      .record(z.string(), z.unknown(), { error: 'must be a JSON object of attribute name → value' })
      .refine((a) => Object.keys(a).length <= REMOTE_EVAL_MAX_ENTRIES, atMost('attributes'))
      .default({}),
    forcedVariations: z
      .record(
        z.string(),
        z
          .number({ error: 'a forced variation must be a variation index (0, 1, …)' })
          .int('a forced variation must be a whole number')
          .min(0, 'a forced variation must be 0 or more'),
        { error: 'must be a JSON object of experiment key → variation index' },
      )
      .refine((v) => Object.keys(v).length <= REMOTE_EVAL_MAX_ENTRIES, atMost('forced variations'))
      .default({}),
    forcedFeatures: z
      .array(
        z.tuple([z.string({ error: 'a forced feature key must be a string' }), z.unknown()], {
          error: 'a forced feature must be a [featureKey, value] pair',
        }),
        {
          error: 'must be a JSON array of [featureKey, value] pairs',
        },
      )
      .max(REMOTE_EVAL_MAX_ENTRIES, atMost('forced features'))
      .default([]),
    url: z
      .string({ error: 'must be a string' })
      .max(REMOTE_EVAL_MAX_URL_LENGTH, `must be at most ${REMOTE_EVAL_MAX_URL_LENGTH} characters`)
      .default(''),
  },
  { error: 'the body must be a JSON object: { attributes, forcedVariations, forcedFeatures, url }' },
);

export type RemoteEvalRequest = z.output<typeof RemoteEvalRequestSchema>;
