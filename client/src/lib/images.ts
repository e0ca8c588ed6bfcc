/** RULES 13.6: image widths 640 to 3840 at quality 75, as responsive candidates for the browser to choose from. */
export const IMAGE_WIDTHS = [640, 750, 828, 1080, 1200, 1920, 2048, 3840] as const;
export const IMAGE_QUALITY = 75;

/** A vector image: one file draws sharp at every width and has no quality to choose. */
const VECTOR = /\.svg(?:[?#]|$)/i;

/**
 * The candidates of RULES 13.6 for a raster image; none for a vector one (`.svg`, the catalog's artwork), whose
 * candidates would all be the same file under eight addresses (about 400 bytes of markup a card for nothing).
 */
export function imageSrcSet(src: string): string | undefined {
  if (VECTOR.test(src)) return undefined;
  const sep = src.includes('?') ? '&' : '?';
  return IMAGE_WIDTHS.map((w) => `${src}${sep}w=${w}&q=${IMAGE_QUALITY} ${w}w`).join(', ');
}
