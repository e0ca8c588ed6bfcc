import type { FragmentImage, FragmentStore } from '../../../shared/schemas/page-render.js';
import { KEPT_ATTRIBUTE, type KeptMarkupRender } from '../components/kept-markup.js';

/** The five characters React escapes in an attribute, read back. */
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'" };
const unescape = (value: string) => value.replace(/&(?:amp|lt|gt|quot|#x27);/g, (entity) => ENTITIES[entity]!);

/**
 * A kept part's mark: its attribute, which React writes last on the start tag (it is the element's last prop), its
 * value this render's token and the part's number, so that no text a part holds can pass for one.
 */
const markOf = (token: string) => new RegExp(` ${KEPT_ATTRIBUTE}="${token}-(\\d+)">`, 'g');

/** Where the element whose start tag ends at `from` closes: the matching end tag, counting nested ones. */
function closingTag(markup: string, tag: string, from: number): number {
  const tags = new RegExp(`<(/?)${tag}(?=[\\s>/])`, 'g');
  tags.lastIndex = from;
  let depth = 1;
  for (let m = tags.exec(markup); m; m = tags.exec(markup)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) return m.index;
  }
  return -1;
}

const PRIORITIES = new Set(['high', 'auto']);

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();
/**
 * The text as a string of its own. V8 makes a part cut from a longer string share that string's characters, so a
 * kept part cut from its page's markup would hold the whole markup as long as it is kept, unseen by the cache's
 * count of its bytes (RULES 13.12).
 */
const ownCopy = (text: string) => DECODER.decode(ENCODER.encode(text));

/**
 * The pictures in a fragment's markup that React preloaded as it drew them: every `<img>` with a source (a
 * `src` or a `srcSet`, not a `data:` one) that is not lazy nor of low priority, with the attributes a preload
 * carries. Read off React's own markup (`name="value"`, escaped). Parts hold no `<picture>` or `<noscript>`, whose
 * images React leaves alone.
 */
export function eagerImages(html: string): FragmentImage[] {
  const images: FragmentImage[] = [];
  for (const [tag] of html.matchAll(/<img\s[^>]*>/g)) {
    const attrs = new Map<string, string>();
    for (const [, name, value] of tag.matchAll(/([a-zA-Z-]+)="([^"]*)"/g)) attrs.set(name!, unescape(value!));
    const src = attrs.get('src');
    const srcSet = attrs.get('srcSet');
    const href = src ?? srcSet;
    if (!href || attrs.get('loading') === 'lazy' || attrs.get('fetchPriority') === 'low') continue;
    if (/^data:/i.test(src ?? '') || /^data:/i.test(srcSet ?? '')) continue;
    const sizes = attrs.get('sizes');
    const priority = attrs.get('fetchPriority');
    images.push({
      href,
      ...(srcSet ? { imageSrcSet: srcSet } : {}),
      ...(sizes ? { imageSizes: sizes } : {}),
      ...(priority && PRIORITIES.has(priority) ? { fetchPriority: priority as FragmentImage['fetchPriority'] } : {}),
    });
  }
  return images;
}

/**
 * One render's use of the kept fragments (RULES 13.13): reads them from `store`, numbers the parts drawn anew, and
 * once the page is written (`finish`) keeps what each of those parts' elements holds and takes the marks out. A
 * render that reported an error keeps nothing (`finish(markup, false)`): a part may hold what the client is to
 * draw instead.
 */
export function keptFragments(store: FragmentStore): KeptMarkupRender & {
  finish(markup: string, keep: boolean): string;
} {
  const token = Math.random().toString(36).slice(2, 10);
  const opened: string[] = [];
  return {
    get: (key) => store.get(key),
    open: (key) => `${token}-${opened.push(key) - 1}`,
    finish(markup, keep) {
      // A page whose every part was kept has nothing to look for.
      if (opened.length === 0) return markup;
      const marked = markOf(token);
      const unmarked = (html: string) => html.replace(marked, '>');
      if (keep) {
        for (const mark of markup.matchAll(marked)) {
          const key = opened[Number(mark[1])];
          const lt = markup.lastIndexOf('<', mark.index);
          const tag = /^<([a-z][a-z0-9-]*)/.exec(markup.slice(lt, lt + 32))?.[1];
          const start = mark.index + mark[0].length;
          const end = key !== undefined && tag ? closingTag(markup, tag, start) : -1;
          if (end < 0) continue;
          const html = ownCopy(unmarked(markup.slice(start, end)));
          store.set(key!, { html, images: eagerImages(html) });
        }
      }
      return unmarked(markup);
    },
  };
}
