import {
  findNodeAtLocation,
  getNodeValue,
  parse,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import type { z } from 'zod';
import { jsonPath } from '../../shared/schemas/zod.js';

/** One problem in a segment file, placed where an editor can show it. */
export interface SegmentProblem {
  file: string;
  /** 1-based: the offending value, the object missing a field, or where the JSON stops being JSON. */
  line: number;
  column: number;
  /** JSON path inside the file, e.g. `rows[2].size`; empty for the file as a whole. */
  path: string;
  /** The offending value as JSON, shortened when long; absent when a field is missing. */
  value?: string;
  /** What is wrong and what is allowed, as a sentence. */
  message: string;
}

/**
 * Turns what is wrong with a segment file into sentences a merchandiser can act on: where (line and column of
 * the offending value), what was found, and what is allowed, with the closest allowed spelling. Every
 * problem the CLI and the studio show is made here.
 */

/** A problem found at a JSON path, before it is placed in its file's text. */
export interface PathProblem {
  at: (string | number)[];
  message: string;
  /** `key`: the field's name is the mistake (an unknown field); `value`: what it holds. */
  anchor?: 'key' | 'value';
  /** Shown when the value at `at` is not the one to show (an unknown field's name, a page folder). */
  value?: string;
}

/** The longest value a problem quotes; a longer one is cut with an ellipsis. */
export const VALUE_MAX_CHARS = 40;

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

/** Edit distance, ignoring case: insertions, deletions, substitutions and swaps of neighbours ("titel"). */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d = Array.from({ length: s.length + 1 }, (_, i) =>
    Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const row = d[i]!;
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + (s[i - 1] === t[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[s.length]![t.length]!;
}

/**
 * The candidate closest to `input`, when it is close enough to be what was meant: at most one edit in four
 * characters (at least one), so "venue" suggests "venues" and "delete" suggests nothing.
 */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    // A candidate whose length alone puts it too far is never compared: the comparison costs length × length.
    if (Math.abs(c.length - input.length) > Math.max(1, Math.floor(Math.max(input.length, c.length) / 4))) continue;
    const d = editDistance(input, c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(Math.max(input.length, best.length) / 4))
    ? best
    : undefined;
}

export const didYouMean = (input: unknown, candidates: readonly string[]) => {
  const match = typeof input === 'string' ? closest(input, candidates) : undefined;
  return match === undefined || match === input ? '' : ` Did you mean "${match}"?`;
};

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: before.length - lineStart + 1 };
}

/** A value as JSON, cut to `VALUE_MAX_CHARS`. */
export function shortValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > VALUE_MAX_CHARS ? `${text.slice(0, VALUE_MAX_CHARS - 1)}…` : text;
}

/** `file:line:column: message`, with the value when the message does not already show it. */
export function formatProblem(p: SegmentProblem): string {
  const value = p.value !== undefined && !p.message.includes(p.value) ? ` (found ${p.value})` : '';
  return `${p.file}:${p.line}:${p.column}: ${p.message}${value}`;
}

/** One segment file's text, parsed once, to place problems in it. */
export class SegmentSource {
  private parsedTree: Node | undefined | null = null;

  constructor(
    readonly file: string,
    readonly text: string,
  ) {}

  /** The file's syntax tree, built only when a problem must be placed: a valid set never needs one. */
  private get tree(): Node | undefined {
    if (this.parsedTree === null) this.parsedTree = parseTree(this.text);
    return this.parsedTree;
  }

  /** The file's JSON, or the first syntax error as a problem (what follows one is seldom a mistake of its own). */
  parse(): { value: unknown } | { problem: SegmentProblem } {
    try {
      return { value: JSON.parse(this.text) as unknown };
    } catch {
      // Not JSON: the tolerant parser says where and why, in words.
    }
    const errors: ParseError[] = [];
    const value: unknown = parse(this.text, errors, {
      disallowComments: true,
      allowTrailingComma: false,
      allowEmptyContent: false,
    });
    const first = errors[0];
    if (!first) return { value };
    const { offset, message } = syntaxMessage(this.text, first);
    const token = this.text.slice(offset, offset + Math.max(first.length, 0)).trim();
    return {
      problem: {
        file: this.file,
        ...lineColumn(this.text, offset),
        path: '',
        ...(token ? { value: shortValue(token) } : {}),
        message,
      },
    };
  }

  /** A problem at a JSON path: at the value, at the field's name, or at the nearest object that holds it. */
  place(p: PathProblem): SegmentProblem {
    const exact = this.tree && findNodeAtLocation(this.tree, p.at);
    let node = exact && p.anchor === 'key' && exact.parent?.type === 'property' ? exact.parent.children?.[0] : exact;
    for (let up = p.at.length - 1; !node && this.tree && up >= 0; up--)
      node = findNodeAtLocation(this.tree, p.at.slice(0, up));
    const value = p.value ?? (exact && p.anchor !== 'key' ? shortValue(getNodeValue(exact)) : undefined);
    return {
      file: this.file,
      ...lineColumn(this.text, node?.offset ?? 0),
      path: jsonPath(p.at),
      ...(value !== undefined ? { value } : {}),
      message: p.message,
    };
  }

  /** A problem with the file as a whole (its name, its place in the set). */
  whole(message: string, value?: string): SegmentProblem {
    return { file: this.file, line: 1, column: 1, path: '', ...(value !== undefined ? { value } : {}), message };
  }
}

function syntaxMessage(text: string, error: ParseError): { offset: number; message: string } {
  const code = printParseErrorCode(error.error);
  const before = text.slice(0, error.offset).trimEnd();
  if (
    (code === 'PropertyNameExpected' || code === 'ValueExpected') &&
    before.endsWith(',') &&
    /^\s*[}\]]/.test(text.slice(error.offset))
  ) {
    return {
      offset: before.length - 1,
      message: 'not valid JSON: JSON allows no comma after the last item: remove this comma',
    };
  }
  const plain: Record<string, string> = {
    InvalidSymbol: 'this is not JSON here: text needs double quotes, and true, false and null are lower-case',
    InvalidNumberFormat: 'this is not a number JSON can read',
    PropertyNameExpected: 'a field name in double quotes was expected here',
    ValueExpected: 'a value was expected here',
    ColonExpected: 'a colon (:) was expected here, between the field name and its value',
    CommaExpected: 'a comma (or a closing bracket) is missing before this',
    CloseBraceExpected: 'a } is missing: an object is not closed',
    CloseBracketExpected: 'a ] is missing: a list is not closed',
    EndOfFileExpected: 'there is more after the end of the JSON: remove it',
    InvalidCommentToken: 'JSON has no comments: remove this one',
    UnexpectedEndOfComment: 'JSON has no comments: remove this one',
    UnexpectedEndOfString: 'this text is not closed with a double quote',
    UnexpectedEndOfNumber: 'this number is cut short',
    InvalidUnicode: 'this \\u escape needs four hex digits',
    InvalidEscapeCharacter: 'this backslash escape is not one JSON knows',
    InvalidCharacter: 'this character must be escaped inside text',
  };
  const message =
    text.trim() === '' ? 'the file is empty: it needs a JSON object' : (plain[code] ?? 'this is not valid JSON');
  return { offset: error.offset, message: `not valid JSON: ${message}` };
}

// ---- zod issues as sentences ----

type Schema = z.ZodType;
type Def = { type: string; [key: string]: unknown };
const defOf = (s: Schema) => (s as unknown as { _zod: { def: Def } })._zod.def;

function unwrap(schema: Schema): Schema {
  let s = schema;
  for (;;) {
    const def = defOf(s);
    if (['optional', 'default', 'nullable', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(def.type))
      s = def.innerType as Schema;
    else if (def.type === 'pipe') s = def.in as Schema;
    else return s;
  }
}

/** The schema of the value at `at`, choosing each union's option by the value found there. */
function schemaAt(root: Schema, raw: unknown, at: readonly (string | number)[]): Schema | undefined {
  let s: Schema = root;
  let value = raw;
  let i = 0;
  for (;;) {
    s = unwrap(s);
    const def = defOf(s);
    if (def.type === 'union') {
      const disc = def.discriminator as string | undefined;
      const pick = disc
        ? (def.options as Schema[]).find((o) =>
            literalValues(unwrap(o), disc).includes((value as Record<string, unknown> | null)?.[disc]),
          )
        : undefined;
      if (!pick) return i === at.length ? s : undefined;
      s = pick;
      continue;
    }
    if (i === at.length) return s;
    const part = at[i++]!;
    value = (value as Record<string | number, unknown> | null | undefined)?.[part];
    const shape = def.shape as Record<string, Schema>;
    const next: Schema | undefined =
      def.type === 'object'
        ? Object.hasOwn(shape, part)
          ? shape[part]
          : undefined
        : def.type === 'array'
          ? (def.element as Schema)
          : undefined;
    if (!next) return undefined;
    s = next;
  }
}

function literalValues(object: Schema, key: string): unknown[] {
  const def = defOf(object);
  const shape = def.shape as Record<string, Schema>;
  const field = def.type === 'object' && Object.hasOwn(shape, key) ? shape[key] : undefined;
  return field ? ((defOf(unwrap(field)).values as unknown[] | undefined) ?? []) : [];
}

function fieldsOf(schema: Schema | undefined): string[] {
  if (!schema) return [];
  const def = defOf(unwrap(schema));
  return def.type === 'object' ? Object.keys(def.shape as object) : [];
}

/** What a value of this schema looks like, for "needs …" and "must be …". */
function expectation(schema: Schema | undefined): string {
  if (!schema) return 'a value';
  const s = unwrap(schema) as Schema & {
    minValue?: number | null;
    maxValue?: number | null;
    isInt?: boolean;
    minLength?: number | null;
    maxLength?: number | null;
  };
  const def = defOf(s);
  switch (def.type) {
    case 'number': {
      const what = s.isInt ? 'a whole number' : 'a number';
      const low =
        s.minValue !== null &&
        s.minValue !== undefined &&
        Number.isFinite(s.minValue) &&
        Math.abs(s.minValue) < Number.MAX_SAFE_INTEGER
          ? s.minValue
          : undefined;
      const high =
        s.maxValue !== null &&
        s.maxValue !== undefined &&
        Number.isFinite(s.maxValue) &&
        Math.abs(s.maxValue) < Number.MAX_SAFE_INTEGER
          ? s.maxValue
          : undefined;
      if (low !== undefined && high !== undefined) return `${what} from ${low} to ${high}`;
      if (high !== undefined) return `${what} up to ${high}`;
      if (low !== undefined) return `${what} of at least ${low}`;
      return what;
    }
    case 'string':
      return s.maxLength ? `text of up to ${s.maxLength} characters` : 'text';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'a list [ … ]';
    case 'object':
      return `an object { … } with ${Object.keys(def.shape as object).join(', ')}`;
    case 'enum':
      return `one of ${Object.values(def.entries as object).join(', ')}`;
    case 'literal':
      return `"${String((def.values as unknown[])[0])}"`;
    case 'union': {
      const disc = def.discriminator as string | undefined;
      return disc
        ? `an object { … } with "${disc}": ${(def.options as Schema[]).flatMap((o) => literalValues(unwrap(o), disc)).join(', ')}`
        : 'a value';
    }
    default:
      return 'a value';
  }
}

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
          : issue.format === 'regex' && !/^Invalid/.test(issue.message)
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
