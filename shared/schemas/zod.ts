import { config, z } from 'zod';
import { decimalNumber } from '../rules/decimal.js';

/**
 * The one `z` every shared schema and every client schema is built with. In a browser, zod runs jitless:
 * compiling object parsers needs `new Function`, and even zod's probe for it is reported as a violation of
 * the pages' CSP (`script-src 'self'`, no 'unsafe-eval'). zod reads the setting as each object schema is built,
 * so it is set here, before any schema: every module that builds one imports `z` from this file. The server
 * keeps the compiled parsers.
 */
if ('document' in globalThis) config({ jitless: true });

/** What a message calls each kind of value zod expects or was given. */
const KINDS: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  map: 'an object',
  array: 'a list',
  tuple: 'a list',
  set: 'a list',
  date: 'a date',
  file: 'a file',
  null: 'null',
  never: 'absent',
};

/** Said of a list where one value is wanted: a query parameter named twice comes as the list of its values. */
const ONE_VALUE = 'must be one value, not a list';

/** The kinds a query parameter is read as: one value each. */
const SCALARS = new Set(['string', 'number', 'int', 'bigint', 'boolean']);

/** Whether `input` is what a query parameter given more than once reads as: a list of its texts. */
const textList = (input: unknown) =>
  Array.isArray(input) && input.length > 1 && input.every((v) => typeof v === 'string');

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? 'a number' : String(value);
  return KINDS[typeof value] ?? typeof value;
}

/** A value as a message may quote it: short, and as JSON writes it. */
const quoted = (value: unknown) => {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
};

/** Up to `most` values, quoted and joined, with how many more there are. */
function listed(values: readonly unknown[], most = 12): string {
  const shown = values.slice(0, most).map(quoted).join(', ');
  return values.length > most ? `${shown} (and ${values.length - most} more)` : shown;
}

const counted = (n: number | bigint, unit: string) => `${n} ${unit}${Number(n) === 1 ? '' : 's'}`;

/** A size check's limit as its message says it: characters, items, bytes or a date, by what it checks. */
function limitOf(origin: string | undefined, n: number | bigint): string {
  switch (origin) {
    case 'string':
      return counted(n, 'character');
    case 'array':
    case 'set':
      return counted(n, 'item');
    case 'map':
      return counted(n, 'entry').replace(/entrys$/, 'entries');
    case 'file':
      return counted(n, 'byte');
    case 'date':
      return new Date(Number(n)).toISOString();
    default:
      return String(n);
  }
}

/** The words a size check is told in: `at least`, `more than`, `exactly`… */
function sizeCheck(
  issue: { origin?: string; inclusive?: boolean; exact?: boolean },
  limit: number | bigint,
  small: boolean,
) {
  const { origin } = issue;
  if (issue.exact) return `must be exactly ${limitOf(origin, limit)}`;
  if (origin === 'date') return `must be ${small ? 'on or after' : 'on or before'} ${limitOf(origin, limit)}`;
  if (issue.inclusive === false) return `must be ${small ? 'more' : 'less'} than ${limitOf(origin, limit)}`;
  return `must be ${small ? 'at least' : 'at most'} ${limitOf(origin, limit)}`;
}

/**
 * RULES 14.14: the message of a check whose schema names none, in our words: what the value must be, after its path
 * (`q: must be one value, not a list`). zod's own wording never reaches a client, a merchandiser or an operator.
 */
export function ownMessage(issue: z.core.$ZodRawIssue): string {
  const root = !issue.path || issue.path.length === 0;
  const subject = root ? 'The value ' : '';
  const input = issue.input;
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return `${subject}is required`;
      if (SCALARS.has(issue.expected) && textList(input)) return `${subject}${ONE_VALUE}`;
      if (issue.expected === 'int' && typeof input === 'number' && Number.isFinite(input))
        return `${subject}must be a whole number`;
      return `${subject}must be ${KINDS[issue.expected] ?? issue.expected}, not ${kindOf(input)}`;
    }
    case 'too_small': {
      if (!issue.exact && issue.origin === 'string' && Number(issue.minimum) === 1)
        return `${subject}must not be empty`;
      if (!issue.exact && issue.origin === 'array' && Number(issue.minimum) === 1)
        return `${subject}must list at least one item`;
      return `${subject}${sizeCheck(issue, issue.minimum, true)}`;
    }
    case 'too_big': {
      if (issue.origin === 'int' && Number(issue.maximum) === Number.MAX_SAFE_INTEGER) return `${subject}is too large`;
      return `${subject}${sizeCheck(issue, issue.maximum, false)}`;
    }
    case 'invalid_value':
      if (textList(input)) return `${subject}${ONE_VALUE}`;
      return issue.values.length === 1
        ? `${subject}must be ${quoted(issue.values[0])}`
        : `${subject}must be one of ${listed(issue.values)}`;
    case 'invalid_format':
      switch (issue.format) {
        case 'email':
          return `${subject}must be an email address`;
        case 'url':
          return `${subject}must be a web address`;
        case 'datetime':
          return `${subject}must be a date and time in ISO 8601 (2026-05-01T19:30:00Z)`;
        case 'date':
          return `${subject}must be a date in ISO 8601 (2026-05-01)`;
        case 'time':
          return `${subject}must be a time in ISO 8601 (19:30:00)`;
        case 'uuid':
        case 'guid':
          return `${subject}must be a UUID`;
        case 'starts_with':
          return `${subject}must start with ${quoted((issue as { prefix?: string }).prefix)}`;
        case 'ends_with':
          return `${subject}must end with ${quoted((issue as { suffix?: string }).suffix)}`;
        case 'includes':
          return `${subject}must include ${quoted((issue as { includes?: string }).includes)}`;
        default:
          return `${subject}is not in the form expected here${issue.format === 'regex' ? '' : ` (${issue.format})`}`;
      }
    case 'not_multiple_of':
      return `${subject}must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `${subject}has ${issue.keys.length === 1 ? 'a field' : 'fields'} not known here: ${listed(issue.keys)}`;
    case 'invalid_union': {
      const options = (issue as { options?: unknown[] }).options;
      if (issue.inclusive === false) return `${subject}matches more than one of the forms accepted here`;
      return Array.isArray(options) && options.length > 0
        ? `${subject}must be one of ${listed(options)}`
        : `${subject}matches none of the forms accepted here`;
    }
    case 'invalid_key':
    case 'invalid_element': {
      // The key's or entry's own check may say what it wants (`a feature key uses letters, digits…`).
      const inner = issue.issues.find((found) => typeof found.message === 'string' && found.message !== '')?.message;
      const what = issue.code === 'invalid_key' ? 'a key' : 'an entry';
      return inner ? `${subject}has ${what} that is not valid: ${inner}` : `${subject}has ${what} that is not valid`;
    }
    default:
      return `${subject}is not valid`;
  }
}

// Read when a check fails, not when a schema is built: every schema, wherever it was built, speaks so.
config({ customError: ownMessage });

export { z };

/**
 * A number read from a query parameter or a path segment: decimal text is its number (`decimalNumber`); anything else
 * (`''`, `0x10`, `1e3`) is left for `schema` to refuse with its own message, never read as 0 or 16 the way
 * `z.coerce.number()` would. A parameter given twice (`?page=1&page=2`) is told so: "not a number" would mislead.
 */
export function fromText<T extends z.ZodType>(schema: T) {
  return z.preprocess((value, ctx) => {
    if (typeof value === 'string') return decimalNumber(value) ?? value;
    if (textList(value))
      ctx.addIssue({ code: 'custom', message: `${ONE_VALUE} (is it given more than once?)`, input: value });
    return value;
  }, schema);
}

/** A zod issue's path as a JSON path: `rows[2].size`. */
export function jsonPath(parts: readonly PropertyKey[]): string {
  return parts.reduce<string>(
    (out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${String(p)}` : String(p)),
    '',
  );
}

/**
 * An entity's id as an address carries it (`/api/listings/12`, `?eventId=12`): decimal text of a whole number from 1
 * to the largest an id can be, each refusal naming `name`.
 */
export function idFromText(name: string) {
  return fromText(
    z
      .number({ error: `${name} must be a number` })
      // The range first, each alone: a number past the largest safe one is no whole number to zod either.
      .max(Number.MAX_SAFE_INTEGER, { error: `${name} is too large to be an id`, abort: true })
      .positive({ error: `${name} must be 1 or more`, abort: true })
      .int(`${name} must be a whole number`),
  );
}

/** A page number in an address (`?page=2`): decimal text from 1 to `max`, the first page when absent. */
export function pageFromText(max: number) {
  return fromText(
    z
      .number({ error: 'page must be a number' })
      .max(max, { error: `page must be at most ${max}`, abort: true })
      .min(1, { error: 'page starts at 1', abort: true })
      .int('page must be a whole number'),
  ).default(1);
}
