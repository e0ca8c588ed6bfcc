/** A decimal number as an address writes one: `12`, `-3.5`, `.5`; not hex, an exponent, a blank or `Infinity`. */
const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * The number decimal text spells, or undefined for any other text (RULES 14.14): what `Number()` would read as 0
 * (`''`, `' '`), 16 (`0x10`) or 10 (`1e1`) is no number in an address.
 */
export function decimalNumber(text: string): number | undefined {
  return DECIMAL.test(text) ? Number(text) : undefined;
}
