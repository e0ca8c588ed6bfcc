import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SkippedPage } from './segment-set.js';

/**
 * Mistakes merchandisers make in segment files, each with the one problem it must give (where, the value,
 * what the sentence says) and the pages it leaves unbuilt. The CLI test and the studio API test both run
 * every case, so `check` and the studio cannot drift apart.
 */
export interface ProblemCase {
  name: string;
  /** Files changed from the shipped `segments/` set: the new text, or null to remove the file. */
  files: Record<string, string | null>;
  problems: { file: string; line: number; column: number; value?: string; message: string }[];
  skipped: SkippedPage[];
}

const shipped = (file: string) => readFileSync(path.resolve('segments', file), 'utf8');

/** The shipped file with `from` (which must be in it, once) replaced by `to`. */
function edit(file: string, from: string, to: string): Record<string, string> {
  const text = shipped(file);
  if (text.split(from).length !== 2) throw new Error(`${file} does not hold ${JSON.stringify(from)} exactly once`);
  return { [file]: text.replace(from, to) };
}

const exploreSkipped: SkippedPage[] = [
  { file: 'encore/explore.json', page: 'encore/explore', because: 'base/explore.json' },
  { file: 'base/explore~promos.json', page: 'base/explore~promos', because: 'base/explore.json' },
];

export const PROBLEM_CASES: ProblemCase[] = [
  {
    name: 'a row kind misspelled in the base explore page',
    files: edit('base/explore.json', '"kind": "venues"', '"kind": "venue"'),
    problems: [
      {
        file: 'base/explore.json',
        line: 42,
        column: 15,
        value: '"venue"',
        message:
          '"venue" is not a row kind. Allowed kinds: performers, events, venues, ' +
          'categories, promos. Did you mean "venues"?',
      },
    ],
    skipped: exploreSkipped,
  },
  {
    name: 'a comma after the last field of a row (JSON syntax)',
    files: edit(
      'base/explore.json',
      '"radiusMiles": 50,\n      "empty": "hide"\n    },\n    {\n      "id": "national',
      '"radiusMiles": 50,\n      "empty": "hide",\n    },\n    {\n      "id": "national',
    ),
    problems: [
      {
        file: 'base/explore.json',
        line: 46,
        column: 22,
        value: '","',
        message: 'not valid JSON: JSON allows no comma after the last item: remove this comma',
      },
    ],
    skipped: exploreSkipped,
  },
  {
    name: 'an unknown field: "sizee" for "size"',
    files: edit(
      'base/explore.json',
      '"size": 5,\n      "radiusMiles": 50,\n      "empty": "show"',
      '"sizee": 5,\n      "radiusMiles": 50,\n      "empty": "show"',
    ),
    problems: [
      {
        file: 'base/explore.json',
        line: 19,
        column: 7,
        value: '"sizee"',
        message:
          '"sizee" is not a field of an events row. Fields: id, title, empty, kind, ' +
          'filter, sort, size, radiusMiles, tabs. Did you mean "size"?',
      },
    ],
    skipped: exploreSkipped,
  },
  {
    name: 'a size above the most a row shows',
    files: edit(
      'base/explore.json',
      '"size": 5,\n      "radiusMiles": 50,\n      "empty": "show"',
      '"size": 40,\n      "radiusMiles": 50,\n      "empty": "show"',
    ),
    problems: [
      {
        file: 'base/explore.json',
        line: 19,
        column: 15,
        value: '40',
        message: 'size 40 is more than 24, the most allowed',
      },
    ],
    skipped: exploreSkipped,
  },
  {
    name: 'a size written as text',
    files: edit('base/explore.json', '"size": 8,', '"size": "8",'),
    problems: [
      {
        file: 'base/explore.json',
        line: 44,
        column: 15,
        value: '"8"',
        message: 'size must be a whole number from 1 to 24, not text',
      },
    ],
    skipped: exploreSkipped,
  },
  {
    name: 'a required field left out',
    files: edit('base/explore.json', '      "size": 8,\n', ''),
    problems: [
      {
        file: 'base/explore.json',
        line: 40,
        column: 5,
        message: 'a venues row needs "size": a whole number from 1 to 24',
      },
    ],
    skipped: exploreSkipped,
  },
  {
    name: 'a sort order that does not exist',
    files: edit('base/explore.json', '"sort": "trending"', '"sort": "trendng"'),
    problems: [
      {
        file: 'base/explore.json',
        line: 52,
        column: 15,
        value: '"trendng"',
        message:
          '"trendng" is not a sort order. Allowed sort orders: soonest, popular, trending. Did you mean "trending"?',
      },
    ],
    skipped: exploreSkipped,
  },
  {
    name: 'an unknown category slug in a tile',
    files: edit('base/explore.json', '"slug": "broadway"', '"slug": "broadwy"'),
    problems: [
      {
        file: 'base/explore.json',
        line: 67,
        column: 19,
        value: '"broadwy"',
        message: '"broadwy" is not a category. Did you mean "broadway"?',
      },
    ],
    skipped: exploreSkipped,
  },
  {
    name: 'an override operation with an unknown op',
    files: edit('encore/explore.json', '"op": "remove"', '"op": "remov"'),
    problems: [
      {
        file: 'encore/explore.json',
        line: 28,
        column: 13,
        value: '"remov"',
        message:
          '"remov" is not an operation. Allowed operations: replace, remove, ' +
          'insertBefore, insertAfter, append. Did you mean "remove"?',
      },
    ],
    skipped: [],
  },
  {
    name: 'an override naming a row its base page does not have',
    files: edit('encore/explore.json', '"id": "popular-local-performers"', '"id": "popular-local-performer"'),
    problems: [
      {
        file: 'encore/explore.json',
        line: 7,
        column: 13,
        value: '"popular-local-performer"',
        message:
          'there is no row "popular-local-performer" on the page this extends. Did ' +
          'you mean "popular-local-performers"?',
      },
    ],
    skipped: [],
  },
  {
    name: 'a brand colour that is not a colour in brands.json',
    files: edit('brands.json', '"primary": "#b91c1c"', '"primary": "red"'),
    problems: [
      {
        file: 'brands.json',
        line: 27,
        column: 20,
        value: '"red"',
        message: '"red" is not a valid primary: a colour like #5b21b6',
      },
    ],
    skipped: [],
  },
  {
    name: 'a page in a folder that is not a brand',
    files: { 'encor/sports.json': shipped('encore/explore.json') },
    problems: [
      {
        file: 'encor/sports.json',
        line: 1,
        column: 1,
        value: '"encor"',
        message: 'the folder "encor" is not a brand in brands.json. Brands: base, encore. Did you mean "encore"?',
      },
    ],
    skipped: [],
  },
  {
    name: 'a page of the default brand with no file at all',
    files: { 'base/sports.json': null },
    problems: [
      {
        file: 'base/sports.json',
        line: 1,
        column: 1,
        message: 'there is no base/sports.json: the default brand, base, must define every page',
      },
    ],
    skipped: [],
  },
];
