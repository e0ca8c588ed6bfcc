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
