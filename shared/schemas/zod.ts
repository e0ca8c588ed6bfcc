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
  array: 'a list',
  date: 'a date',
  null: 'null',
};

const ONE_VALUE = 'must be one value, not a list (is it given more than once?)';

/** The kinds a query parameter is read as: one value each. */
const SCALARS = new Set(['string', 'number', 'int', 'bigint', 'boolean']);

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
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

/** The characters, items or amount a size check counts, by what it checks. */
const sizeOf = (origin: string | undefined, n: number | bigint) =>
  origin === 'string'
    ? `${n} character${n === 1 ? '' : 's'}`
    : origin === 'array' || origin === 'set'
      ? `${n} item${n === 1 ? '' : 's'}`
      : String(n);

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
      // A query parameter named twice comes as a list of its values.
      if (
        SCALARS.has(issue.expected) &&
        Array.isArray(input) &&
        input.length > 1 &&
        input.every((v) => typeof v === 'string')
      )
        return `${subject}${ONE_VALUE}`;
      if (issue.expected === 'int' && typeof input === 'number' && Number.isFinite(input))
        return `${subject}must be a whole number`;
      return `${subject}must be ${KINDS[issue.expected] ?? issue.expected}, not ${kindOf(input)}`;
    }
    case 'too_small': {
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return `${subject}must not be empty`;
      if (issue.origin === 'array' && Number(issue.minimum) === 1) return `${subject}must list at least one item`;
      return issue.inclusive === false
        ? `${subject}must be more than ${issue.minimum}`
        : `${subject}must be at least ${sizeOf(issue.origin, issue.minimum)}`;
    }
    case 'too_big': {
      if (issue.origin === 'int' && Number(issue.maximum) === Number.MAX_SAFE_INTEGER) return `${subject}is too large`;
      return issue.inclusive === false
        ? `${subject}must be less than ${issue.maximum}`
        : `${subject}must be at most ${sizeOf(issue.origin, issue.maximum)}`;
    }
    case 'invalid_value':
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
      return Array.isArray(options) && options.length > 0
        ? `${subject}must be one of ${listed(options)}`
        : `${subject}matches none of the forms accepted here`;
    }
    case 'invalid_key':
      return `${subject}has a key that is not valid`;
    case 'invalid_element':
      return `${subject}has an entry that is not valid`;
    default:
      return `${subject}is not valid`;
  }
}

// Read when a check fails, not when a schema is built: every schema, wherever it was built, speaks so.
config({ customError: ownMessage });

export { z };

/**
 * A number read from a query parameter or a path segment: decimal text is its number (`decimalNumber`); anything else
 * (`''`, `0x10`, `1e3`, a parameter given twice) is left for `schema` to refuse with its own message, never read as 0
 * or 16 the way `z.coerce.number()` would.
 */
export function fromText<T extends z.ZodType>(schema: T) {
  return z.preprocess((value, ctx) => {
    if (typeof value === 'string') return decimalNumber(value) ?? value;
    // A parameter named twice (`?page=1&page=2`) is no number, but saying so would mislead.
    if (Array.isArray(value) && value.length > 1) ctx.addIssue({ code: 'custom', message: ONE_VALUE, input: value });
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
      // First, and alone: a number past the largest safe one is no whole number to zod either.
      .max(Number.MAX_SAFE_INTEGER, { error: `${name} is too large to be an id`, abort: true })
      .int(`${name} must be a whole number`)
      .positive(`${name} must be 1 or more`),
  );
}

/** A page number in an address (`?page=2`): decimal text from 1 to `max`, the first page when absent. */
export function pageFromText(max: number) {
  return fromText(
    z
      .number({ error: 'page must be a number' })
      .max(max, { error: `page must be at most ${max}`, abort: true })
      .int('page must be a whole number')
      .min(1, 'page starts at 1'),
  ).default(1);
}
