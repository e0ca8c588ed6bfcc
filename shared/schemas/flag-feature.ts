import { z } from './zod.js';
import { doc } from './editor-doc.js';
import { FlagRuleSchema } from './flag-rules.js';

/** One GrowthBook feature: its default value and the rules that change it, every value of the default's type. */

type ValueKind = 'null' | 'boolean' | 'number' | 'string' | 'json';
const kindOf = (value: unknown): ValueKind =>
  value === null ? 'null' : typeof value === 'object' ? 'json' : (typeof value as 'boolean' | 'number' | 'string');

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
