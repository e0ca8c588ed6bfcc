/**
 * Artwork for performers, venues and categories, drawn by the server as SVG so the storefront needs no
 * image host: a gradient and shapes chosen by a hash of the key, with the name's initials.
 */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

export function initials(name: string): string {
  const words = name
    .replace(/^the\s+/i, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return words
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');
}

export function artworkSvg(key: string, label: string): string {
  const h = hash(key);
  const hue = h % 360;
  const hue2 = (hue + 40 + ((h >>> 9) % 80)) % 360;
  const shapes: string[] = [];
  for (let i = 0; i < 5; i++) {
    const v = hash(`${key}:${i}`);
    const cx = v % 640;
    const cy = (v >>> 10) % 360;
    const r = 40 + ((v >>> 20) % 160);
    shapes.push(
      `<circle cx="${cx}" cy="${cy}" r="${r}" fill="hsl(${(hue + i * 25) % 360} 80% 70%)" fill-opacity="0.18"/>`,
    );
  }
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 360" width="640" height="360" role="img"',
    ` aria-label="${escapeXml(label)}">`,
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 65% 38%)"/>`,
    `<stop offset="1" stop-color="hsl(${hue2} 70% 22%)"/></linearGradient></defs>`,
    '<rect width="640" height="360" fill="url(#g)"/>',
    ...shapes,
    `<text x="320" y="200" text-anchor="middle" font-family="system-ui, sans-serif" font-size="120" font-weight="700"`,
    ` fill="#fff" fill-opacity="0.92">${escapeXml(initials(label) || '?')}</text>`,
    '</svg>',
  ].join('');
}
