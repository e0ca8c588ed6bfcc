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

export { z };

/**
 * A number read from a query parameter or a path segment: decimal text is its number (`decimalNumber`); anything else
 * (`''`, `0x10`, `1e3`, a parameter given twice) is left for `schema` to refuse with its own message, never read as 0
 * or 16 the way `z.coerce.number()` would.
 */
export function fromText<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (typeof value === 'string' ? (decimalNumber(value) ?? value) : value), schema);
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
      .int(`${name} must be a whole number`)
      .positive(`${name} must be 1 or more`)
      .max(Number.MAX_SAFE_INTEGER, `${name} is too large to be an id`),
  );
}

/** A page number in an address (`?page=2`): decimal text from 1 to `max`, the first page when absent. */
export function pageFromText(max: number) {
  return fromText(
    z
      .number({ error: 'page must be a number' })
      .int('page must be a whole number')
      .min(1, 'page starts at 1')
      .max(max, `page must be at most ${max}`),
  ).default(1);
}
