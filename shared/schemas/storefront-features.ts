import { doc } from './editor-doc.js';
import { FlagFeatureSchema } from './flag-feature.js';

/** The feature whose value names the home page's layout variation (`<brand>/explore~<value>.json`). */
export const HOME_LAYOUT_FEATURE = 'home_layout';

/** The features the storefront reads, with what each does; any other key is a feature of the same shape. */
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
        'it shows recent and trending searches instead of suggestions (RULES 7.9, 9.6).',
      [{ defaultValue: true, rules: [] }],
    ),
  ),
  isABSearch: FlagFeatureSchema.meta(
    doc(
      'true or false: when on, search suggestions come from the alternate ' +
        'suggester, a JSONP call with a signed token (RULES 7.20). Shipped as the ' +
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
