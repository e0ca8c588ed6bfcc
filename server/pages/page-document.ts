import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Brand } from '../../shared/schemas/brand-registry.js';
import { byteBounded, CACHE_BYTES, roughBytes, type BoundedCache } from '../cache/byte-bounded.js';
import { criticalCss, firstScreenMarkup, markupClasses, parseCss, type CssNode } from './critical-css.js';
import type { PageHead } from './page-renderer.js';

/** Text safe in HTML text and in a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** RULES 13.15: the longest `Link` header a page is given (React's own bound for the links it would send). */
const LINK_HEADER_MAX = 2_000;
/** A preload link React writes before a render's first element, its attributes in any order; read where it stands. */
const PRELOAD_TAG = /<link rel="preload"((?: [A-Za-z]+="[^"]*")+)\/>/y;
const ATTRIBUTE = / ([A-Za-z]+)="([^"]*)"/g;
/** A path on this site: nothing a header could read otherwise. */
const SITE_PATH = /^\/[A-Za-z0-9/._~-]*$/;
const PRIORITIES = new Set(['high', 'low', 'auto']);

/** The `Link` value of one of React's picture preloads, or null when it is not one a header can carry as it is. */
function imagePreloadLink(attributes: string): string | null {
  const attrs = new Map([...attributes.matchAll(ATTRIBUTE)].map((m) => [m[1]!, m[2]!]));
  const href = attrs.get('href');
  const priority = attrs.get('fetchPriority');
  if (attrs.get('as') !== 'image' || !href || !SITE_PATH.test(href)) return null;
  if (priority !== undefined && !PRIORITIES.has(priority)) return null;
  if (attrs.size !== (priority === undefined ? 2 : 3)) return null;
  return `<${href}>; rel=preload; as=image${priority ? `; fetchpriority=${priority}` : ''}`;
}

/**
 * RULES 13.15: the image preloads React writes at the start of a page's markup, as `Link` header values (the same
 * pictures, in order), and the markup without them. The first one a header cannot carry as it is, and all after it,
 * stay in the markup.
 */
export function imagePreloadLinks(markup: string): { markup: string; links: string[] } {
  const links: string[] = [];
  let at = 0;
  let length = 0;
  for (;;) {
    PRELOAD_TAG.lastIndex = at;
    const m = PRELOAD_TAG.exec(markup);
    const link = m && imagePreloadLink(m[1]!);
    length += (link?.length ?? 0) + 2;
    if (!link || length > LINK_HEADER_MAX) break;
    links.push(link);
    at = PRELOAD_TAG.lastIndex;
  }
  return { markup: at === 0 ? markup : markup.slice(at), links };
}

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  css?: string[];
  imports?: string[];
  dynamicImports?: string[];
}

/** The parts of a rendered page around the markup React streams into `#root`. */
export interface DocumentParts {
  /** Everything up to and including `<div id="root">`. */
  start: string;
  /** `</div>`, the page data and the rest of the document. */
  end: string;
  /** The `style-src` sources the page's inline stylesheet needs (its hash). */
  styleSources: string[];
}

/** A page's inline stylesheet element, and the CSP source that allows it. */
interface InlineStyle {
  element: string;
  source: string;
}

const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*href="\/assets\/([^"]+\.css)"[^>]*>\s*/;
const ROOT = '<div id="root"></div>';

/**
 * The built client's `index.html` as the frame of every server-rendered page. The part of its stylesheets the
 * page's markup uses is inlined (with the brand's colours) so the first paint waits for no request; the CSP allows
 * that element by its hash (RULES 13.9). The whole stylesheets are linked at the end of the body, so they hold no
 * paint, for what the client draws later (menus, dialogs, other pages). A page's own module (the event page, say)
 * is preloaded, and its stylesheet inlined in part and linked the same way.
 */
export class PageDocument {
  private readonly head: string;
  private readonly tail: string;
  /** The app's stylesheets (under `assets/`), parsed once. */
  private readonly appSheets: { file: string; nodes: CssNode[] }[];
  /** The page modules' stylesheets, parsed at their first use. */
  private readonly moduleSheets = new Map<string, CssNode[]>();
  private readonly clientDir: string;
  private readonly manifest: Record<string, ManifestChunk>;
  /** The inline stylesheet and its CSP source for a brand, page module and class set, built once (the latest kept). */
  private readonly inlineStyles: BoundedCache<string, InlineStyle> = byteBounded<string, InlineStyle>(
    CACHE_BYTES.inlineStyles,
    roughBytes,
  );

  constructor(clientDir: string) {
    this.clientDir = clientDir;
    let template = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
    const manifestFile = path.join(clientDir, '.vite', 'manifest.json');
    this.manifest = existsSync(manifestFile)
      ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>)
      : {};
    this.app = this.appChunks();
    const link = STYLESHEET_LINK.exec(template);
    if (link) template = template.replace(link[0], '');
    // The app's styles: the entry's, then those of the app it starts (the components' own stylesheets).
    const appStyles = [...new Set([...this.app].flatMap((id) => this.manifest[id]?.css ?? []))];
    const styleFiles = appStyles.length > 0 ? appStyles : link ? [`assets/${link[1]!}`] : [];
    this.appSheets = styleFiles.map((file) => ({
      file,
      nodes: parseCss(readFileSync(path.join(clientDir, file), 'utf8')),
    }));
    template = template.replace(/\s*<title>[^<]*<\/title>/, '').replace(/\s*<meta name="description"[^>]*>/, '');
    const root = template.indexOf(ROOT);
    const headEnd = template.indexOf('</head>');
    if (root < 0 || headEnd < 0) throw new Error(`${clientDir}/index.html has no ${ROOT} or </head>`);
    // The template's indentation between tags is for people reading the source: the pages go without it.
    const compact = (html: string) => html.replace(/>\s+</g, '><').trim();
    this.head = compact(template.slice(0, headEnd));
    this.tail = compact(template.slice(headEnd, root));
    this.rest = compact(template.slice(root + ROOT.length));
  }

  /** The manifest's ids that every page loads: the entry, the app it imports on start, and their imports. */
  private readonly app: Set<string>;

  private appChunks(): Set<string> {
    const ids = new Set<string>();
    const visit = (id: string) => {
      if (ids.has(id) || !this.manifest[id]) return;
      ids.add(id);
      for (const imported of this.manifest[id].imports ?? []) visit(imported);
    };
    for (const [id, chunk] of Object.entries(this.manifest)) {
      if (!chunk.isEntry) continue;
      visit(id);
      // The entry starts the app with one dynamic import (client/src/main.tsx): part of every page too.
      for (const started of chunk.dynamicImports ?? []) visit(started);
    }
    return ids;
  }

  private readonly rest: string;

  /** A page module's stylesheet, parsed once. */
  private moduleSheet(file: string): CssNode[] {
    let nodes = this.moduleSheets.get(file);
    if (!nodes) {
      nodes = parseCss(readFileSync(path.join(this.clientDir, file), 'utf8'));
      this.moduleSheets.set(file, nodes);
    }
    return nodes;
  }

  /**
   * The inline stylesheet (RULES 13.9): the rules of the app's styles, then of the page module's own (the event
   * page's, say), that the page's markup can use (its class names, `markupClasses`), then the brand's theme
   * (RULES 1.9) over their defaults.
   */
  private inlineStyle(brand: Brand, moduleStyles: readonly string[], classes: ReadonlySet<string>): InlineStyle {
    const t = brand.theme;
    const colours = [
      ['brand', t.primary],
      ['brand-contrast', t.primaryContrast],
      ['ink', t.ink],
      ['surface', t.surface],
      ['accent', t.accent],
    ] as const;
    const key = [
      brand.id,
      colours.map(([, value]) => value).join(''),
      moduleStyles.join(' '),
      [...classes].sort().join(' '),
    ].join('\n');
    let style = this.inlineStyles.get(key);
    if (!style) {
      const sheets = [...this.appSheets.map((sheet) => sheet.nodes), ...moduleStyles.map((f) => this.moduleSheet(f))];
      // The colours are validated as #rrggbb by the segment schema; nothing else reaches the stylesheet. `html:root`
      // outweighs the linked stylesheets' `:root` defaults, which come after it in the document.
      const theme = `html:root{${colours.map(([name, value]) => `--${name}:${value}`).join(';')}}`;
      const text = [...sheets.map((nodes) => criticalCss(nodes, classes)), theme].join('\n').replace(/<\//g, '<\\/');
      style = {
        element: `<style>${text}</style>`,
        source: `'sha256-${createHash('sha256').update(text).digest('base64')}'`,
      };
      this.inlineStyles.set(key, style);
    }
    return style;
  }

  /**
   * The script and stylesheet files of a page's own module and its imports, but for the app's: those start after
   * the first paint (client/src/main.tsx), and preloading them would put them ahead of it.
   */
  private moduleFiles(module: string | undefined): { scripts: string[]; styles: string[] } {
    const scripts = new Set<string>();
    const styles = new Set<string>();
    const seen = new Set<string>();
    const visit = (id: string) => {
      const chunk = this.manifest[id];
      if (!chunk || seen.has(id) || this.app.has(id)) return;
      seen.add(id);
      scripts.add(chunk.file);
      for (const css of chunk.css ?? []) styles.add(css);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    if (module) visit(module);
    return { scripts: [...scripts], styles: [...styles] };
  }

  /**
   * The document around a page's markup; `data` (already escaped) goes into the element with id `dataId`. The
   * class names of the markup that can be on the first screen choose the inline styles.
   */
  parts(
    head: PageHead,
    brand: Brand,
    module: string | undefined,
    data: { id: string; json: string },
    markup: string,
  ): DocumentParts {
    const { scripts, styles } = this.moduleFiles(module);
    const style = this.inlineStyle(brand, styles, markupClasses(firstScreenMarkup(markup)));
    // Last in the body: loaded after the first paint, which the inline part serves; the CSP's 'self' allows them.
    const links = [...this.appSheets.map((sheet) => sheet.file), ...styles]
      .map((file) => `<link rel="stylesheet" crossorigin href="/${escapeHtml(file)}" />`)
      .join('');
    const meta = (attr: 'name' | 'property', name: string, content: string | null) =>
      content ? `<meta ${attr}="${name}" content="${escapeHtml(content)}" />` : '';
    const tags = [
      `<title>${escapeHtml(head.title)}</title>`,
      meta('name', 'description', head.description),
      head.noindex
        ? '<meta name="robots" content="noindex" />'
        : `<link rel="canonical" href="${escapeHtml(head.canonical)}" />`,
      meta('property', 'og:site_name', head.siteName),
      meta('property', 'og:type', head.type),
      meta('property', 'og:title', head.title),
      meta('property', 'og:description', head.description),
      meta('property', 'og:url', head.canonical),
      meta('property', 'og:image', head.image),
      // X reads the title, description and image from Open Graph when its own tags are absent: only the card's kind.
      meta('name', 'twitter:card', head.image ? 'summary_large_image' : 'summary'),
      style.element,
      ...scripts.map((file) => `<link rel="modulepreload" crossorigin href="/${escapeHtml(file)}" />`),
    ].filter(Boolean);
    const dataScript = `<script type="application/json" id="${escapeHtml(data.id)}">${data.json}</script>`;
    return {
      start: `${this.head}${tags.join('')}${this.tail}<div id="root">`,
      end: `</div>${dataScript}${links}${this.rest}`,
      styleSources: [style.source],
    };
  }
}
