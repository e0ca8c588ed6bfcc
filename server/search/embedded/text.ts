/**
 * Text normalisation shared by indexing and querying, close to Typesense's defaults: case and accents are
 * ignored, and words split on anything that is not a letter or digit (an apostrophe just disappears, so
 * "Guns N' Roses" and "guns n roses" match alike).
 */
export function foldText(term: string): string {
  return term
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’‘`]/g, '');
}

export function tokenize(text: string): string[] {
  return text
    .replace(/['’‘`]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
}
