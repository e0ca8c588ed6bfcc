/**
 * `text` with its percent-escapes read (`decodeURIComponent`), or undefined when they spell no text: a `%` that
 * starts no escape (`%zz`), or escapes that are no UTF-8 (`%ED%A0%80`, half of a UTF-16 pair). Whoever reads text a
 * client or an operator wrote decides what such text means to them (left as written, refused, or skipped).
 */
export function percentDecoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
