import type { z } from 'zod';
import { jsonPath, ownMessage } from '../../shared/schemas/zod.js';
import { closest, didYouMean } from './did-you-mean.js';
import { expectation, fieldsOf, schemaAt, type Schema } from './schema-shape.js';
import { shortValue, type PathProblem } from './segment-problems.js';

/**
 * A segment file's zod issues as sentences a merchandiser can act on: what was found, what is allowed, and the
 * closest allowed spelling.
 */

/** What a field's allowed values are called, one and many. */
const NOUNS: Record<string, [string, string]> = {
  kind: ['row kind', 'kinds'],
  op: ['operation', 'operations'],
  sort: ['sort order', 'sort orders'],
  empty: ['"empty" behaviour', 'behaviours'],
  dateFilter: ['date filter', 'date filters'],
  parents: ['parent category', 'parent categories'],
};
const nouns = (field: string): [string, string] =>
  Object.hasOwn(NOUNS, field) ? NOUNS[field]! : [`value for "${field}"`, 'values'];

const typeOf = (v: unknown) =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'a list'
      : typeof v === 'string'
        ? 'text'
        : typeof v === 'object'
          ? 'an object'
          : typeof v === 'number'
            ? 'a number'
            : typeof v === 'boolean'
              ? `${v}`
              : typeof v;
const article = (noun: string) => (/^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`);

function valueAt(raw: unknown, at: readonly (string | number)[]): unknown {
  return at.reduce<unknown>(
    (v, p) => (v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[p] : undefined),
    raw,
  );
}

/** "an events row", "a tab", "a "remove" operation": the object at `at`. */
function thingAt(raw: unknown, at: readonly (string | number)[], root: string): string {
  if (at.length === 0) return root;
  const last = at[at.length - 1];
  const holder = typeof last === 'number' ? at[at.length - 2] : last;
  const value = valueAt(raw, at) as Record<string, unknown> | undefined;
  switch (holder) {
    case 'rows':
    case 'row':
      return typeof value?.kind === 'string' &&
        ['performers', 'events', 'venues', 'categories', 'promos'].includes(value.kind)
        ? article(`${value.kind} row`)
        : 'a row';
    case 'operations':
      return typeof value?.op === 'string' &&
        ['replace', 'remove', 'insertBefore', 'insertAfter', 'append'].includes(value.op)
        ? `a "${value.op}" operation`
        : 'an operation';
    case 'tabs':
      return 'a tab';
    case 'tiles':
      return 'a category tile';
    case 'brands':
      return 'a brand';
    default:
      return typeof holder === 'string' ? `"${holder}"` : 'this';
  }
}

/** The field a path ends in, as a sentence names it: `size`, or `rows[2]` for a list item. */
const fieldName = (at: readonly (string | number)[]) => {
  const last = at[at.length - 1];
  return last === undefined ? 'the file' : typeof last === 'number' ? jsonPath(at.slice(-2)) : String(last);
};
const listOf = (values: readonly unknown[]) => values.map(String).join(', ');

/**
 * A file's zod issues as sentences, one per mistake: a misspelled field name is one problem ("did you mean
 * size?"), not also a missing "size".
 */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  raw: unknown,
  schema: Schema,
  root: string,
): PathProblem[] {
  const found = issues.flatMap((issue) => describeIssue(issue, raw, schema, root));
  const meant = new Set(
    issues.flatMap((issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys
            .map((key) => closest(key, fieldsOf(schemaAt(schema, raw, issue.path as (string | number)[]))))
            .filter((k) => k !== undefined)
            .map((k) => jsonPath([...issue.path, k]))
        : [],
    ),
  );
  return found.filter((p) => p.anchor === 'key' || valueAt(raw, p.at) !== undefined || !meant.has(jsonPath(p.at)));
}

/**
 * One zod issue as a plain sentence, placed at the value it is about. `raw` is the parsed file (or merged
 * page) the issue was found in, `schema` the one it was checked against, and `root` what the whole is
 * called ("a page file").
 */
export function describeIssue(issue: z.core.$ZodIssue, raw: unknown, schema: Schema, root: string): PathProblem[] {
  const at = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)) as (string | number)[];
  const value = valueAt(raw, at);
  const field = fieldName(at);
  const parent = at.slice(0, -1);
  const missing = value === undefined && at.length > 0;
  switch (issue.code) {
    case 'invalid_union': {
      const disc = (issue as { discriminator?: string }).discriminator;
      const options = ((issue as { options?: unknown[] }).options ?? []).map(String);
      if (!disc) break;
      if (missing) return [{ at, message: `${thingAt(raw, parent, root)} needs "${disc}": one of ${listOf(options)}` }];
      const [one, many] = nouns(disc);
      return [
        {
          at,
          message:
            `${shortValue(value)} is not ${article(one)}. Allowed ${many}: ` +
            `${listOf(options)}.${didYouMean(value, options)}`,
        },
      ];
    }
    case 'unrecognized_keys': {
      const fields = fieldsOf(schemaAt(schema, raw, at));
      return issue.keys.map((key) => ({
        at: [...at, key],
        anchor: 'key' as const,
        value: shortValue(key),
        message:
          `"${key}" is not a field of ${thingAt(raw, at, root)}. Fields: ` +
          `${listOf(fields)}.${didYouMean(key, fields)}`,
      }));
    }
    case 'invalid_value': {
      const allowed = issue.values.map(String);
      const key = typeof at[at.length - 1] === 'number' ? at[at.length - 2] : at[at.length - 1];
      const [one, many] = nouns(String(key));
      if (missing)
        return [{ at, message: `${thingAt(raw, parent, root)} needs "${field}": one of ${listOf(allowed)}` }];
      return [
        {
          at,
          message:
            `${shortValue(value)} is not ${article(one)}. Allowed ${many}: ` +
            `${listOf(allowed)}.${didYouMean(value, allowed)}`,
        },
      ];
    }
    case 'too_big':
    case 'too_small': {
      const big = issue.code === 'too_big';
      const limit = Number(
        big ? (issue as { maximum: number | bigint }).maximum : (issue as { minimum: number | bigint }).minimum,
      );
      const inclusive = issue.inclusive !== false;
      if (issue.origin === 'number' || issue.origin === 'int') {
        const message = inclusive
          ? `${field} ${shortValue(value)} is ${big ? 'more than' : 'less than'} ` +
            `${limit}, the ${big ? 'most' : 'least'} allowed`
          : `${field} ${shortValue(value)} must be ${big ? 'less' : 'more'} than ${limit}`;
        return [{ at, message }];
      }
      const unit = issue.origin === 'string' ? 'character' : 'item';
      const length = typeof value === 'string' || Array.isArray(value) ? value.length : 0;
      const plural = (n: number) => `${n} ${unit}${n === 1 ? '' : 's'}`;
      if (!big && length === 0) return [{ at, message: `${field} is empty: it needs at least ${plural(limit)}` }];
      return [{ at, message: `${field} has ${plural(length)}; the ${big ? 'most' : 'least'} is ${limit}` }];
    }
    case 'invalid_type': {
      const expected = schemaAt(schema, raw, at);
      if (missing) return [{ at, message: `${thingAt(raw, parent, root)} needs "${field}": ${expectation(expected)}` }];
      if (issue.expected === 'int' && typeof value === 'number')
        return [{ at, message: `${field} ${shortValue(value)} is not a whole number` }];
      const what =
        at.length === 0 ? `${root} must be ${expectation(expected)}` : `${field} must be ${expectation(expected)}`;
      return [{ at, message: `${what}, not ${typeOf(value)}` }];
    }
    case 'invalid_format': {
      const hint =
        issue.format === 'url'
          ? 'use an https:// address such as "https://partner.example.com"'
          : // A pattern's own message says what it wants; the general one (`ownMessage`) does not.
            issue.format === 'regex' && issue.message !== ownMessage({ ...issue, input: undefined })
            ? issue.message
            : `it must match ${issue.pattern ?? issue.format}`;
      return [{ at, message: `${shortValue(value)} is not a valid ${field}: ${hint}` }];
    }
    case 'custom': {
      // The registry's own check names a default brand that is not listed; say which are.
      const brands =
        at.length === 1 && at[0] === 'defaultBrand'
          ? (raw as { brands?: { id?: unknown }[] }).brands?.map((b) => String(b?.id))
          : undefined;
      if (brands)
        return [
          {
            at,
            message:
              `${shortValue(value)} is not a brand listed in "brands". Brands: ` +
              `${listOf(brands)}.${didYouMean(value, brands)}`,
          },
        ];
      return [{ at, message: issue.message }];
    }
    default:
      break;
  }
  return [
    {
      at,
      message:
        at.length === 0
          ? `${root} is not what a segment file holds`
          : `${field} ${shortValue(value)} is not allowed here`,
    },
  ];
}
