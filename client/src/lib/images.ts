/** RULES 13.6: image widths 640 to 3840 at quality 75, as responsive candidates for the browser to choose from. */
export const IMAGE_WIDTHS = [640, 750, 828, 1080, 1200, 1920, 2048, 3840] as const;
export const IMAGE_QUALITY = 75;

export function imageSrcSet(src: string): string {
  const sep = src.includes('?') ? '&' : '?';
  return IMAGE_WIDTHS.map((w) => `${src}${sep}w=${w}&q=${IMAGE_QUALITY} ${w}w`).join(', ');
}
