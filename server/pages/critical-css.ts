/**
 * The part of a stylesheet a page's own markup can use at its first paint (RULES 13.9): the rules whose selectors
 * can match an element of the markup as the server wrote it, judged by class names, without the declarations a
 * first paint cannot show (transitions), and the `@keyframes` those rules run. A stylesheet is parsed once into
 * its rules, each with the classes (and states) its selectors require; a page then keeps the rules whose
 * requirements its markup meets. The whole stylesheet is linked as well, for what the client draws later.
 */

/** A rule of a parsed stylesheet. */
export type CssNode =
  /**
   * A style rule, as a first paint needs it (`firstPaintRule`): kept when one of its selectors needs nothing the
   * markup lacks (`null`: needs nothing). `animations`: the names its `animation` declarations may use.
   */
  | { kind: 'rule'; text: string; needs: readonly (readonly string[])[] | null; animations: readonly string[] }
  /** `@media`, `@supports`, `@layer`, `@container`: its rules filtered, dropped when none is left. */
  | { kind: 'group'; prelude: string; children: readonly CssNode[] }
  /** `@keyframes`: kept when a kept rule's animation may name it. */
  | { kind: 'keyframes'; name: string; text: string }
  /** Anything else (`@font-face`, `@property`, `@import`, `@charset`, `@layer a, b;`): kept. */
  | { kind: 'verbatim'; text: string };

/** At-rules that hold style rules: filtered inside. */
const GROUPS = new Set(['media', 'supports', 'layer', 'container', 'scope', 'starting-style']);

/**
 * States the markup as the server wrote it never shows, required like a class: a rule that only styles a hovered
 * or pressed element, an opened disclosure or a chosen tab, waits for the whole stylesheet, which is there long
 * before a shopper can hover, press or open anything. Focus rules are never among them (a keyboard is quick).
 */
const INTERACTION_STATES: ReadonlyMap<string, string> = new Map([
  [':hover', ':hover'],
  [':active', ':active'],
  ['[aria-expanded=true]', '[aria-expanded=true]'],
  ['[aria-expanded="true"]', '[aria-expanded=true]'],
  ['[aria-selected=true]', '[aria-selected=true]'],
  ['[aria-selected="true"]', '[aria-selected=true]'],
  ['[open]', '[open]'],
]);

/** The markup's attributes that show a state of `INTERACTION_STATES` after all. */
const STATE_ATTRIBUTES: readonly (readonly [RegExp, string])[] = [
  [/\saria-expanded="true"/, '[aria-expanded=true]'],
  [/\saria-selected="true"/, '[aria-selected=true]'],
  [/\sopen(?:=""|[\s>/])/, '[open]'],
];

/**
 * Declarations that cannot change a first paint: a transition only runs when a style changes after the page is
 * drawn, by which time the whole stylesheets are there to run it.
 */
const NOT_AT_FIRST_PAINT = /^(?:-webkit-)?transition(?:-|$)/i;

/** Declarations that name the `@keyframes` an element runs. */
const ANIMATION = /^(?:-webkit-)?animation(?:-name)?$/i;

/** Any `@keyframes` may be used: an animation's name comes from a custom property. */
const ANY_ANIMATION = '*';

/** The index after the comment, string or escape at `i`, or `i + 1`. */
function skipAt(css: string, i: number): number {
  const c = css[i];
  if (c === '/' && css[i + 1] === '*') {
    const end = css.indexOf('*/', i + 2);
    return end < 0 ? css.length : end + 2;
  }
  if (c === '"' || c === "'") {
    let j = i + 1;
    while (j < css.length && css[j] !== c) {
      if (css[j] === '\\') j++;
      else if (css[j] === '\n') break; // an unclosed string ends at the line's end
      j++;
    }
    return Math.min(j + 1, css.length);
  }
  if (c === '\\') return Math.min(i + 2, css.length);
  return i + 1;
}

/** The text without its comments. */
function withoutComments(css: string): string {
  let out = '';
  for (let i = 0; i < css.length;) {
    const next = skipAt(css, i);
    if (!(css[i] === '/' && css[i + 1] === '*')) out += css.slice(i, next);
    i = next;
  }
  return out;
}

/** The index of the `}` that closes the block whose `{` is at `open`. */
function blockEnd(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; i = skipAt(css, i)) {
    if (css[i] === '{') depth++;
    else if (css[i] === '}' && --depth === 0) return i;
  }
  return css.length;
}

/** Parses a stylesheet into its rules (a malformed tail is kept as it is, never dropped silently). */
export function parseCss(css: string): CssNode[] {
  return parseBlock(css, 0, css.length);
}

function parseBlock(css: string, start: number, end: number): CssNode[] {
  const nodes: CssNode[] = [];
  let i = start;
  while (i < end) {
    // Whitespace and comments between rules.
    if (/\s/.test(css[i]!)) {
      i++;
      continue;
    }
    if (css[i] === '/' && css[i + 1] === '*') {
      i = skipAt(css, i);
      continue;
    }
    // The prelude: up to a `{` or `;` outside strings, comments, escapes and brackets.
    let j = i;
    let depth = 0;
    while (j < end && !(depth === 0 && (css[j] === '{' || css[j] === ';' || css[j] === '}'))) {
      if (css[j] === '(' || css[j] === '[') depth++;
      else if (css[j] === ')' || css[j] === ']') depth = Math.max(0, depth - 1);
      j = skipAt(css, j);
    }
    const prelude = withoutComments(css.slice(i, j)).trim();
    if (j >= end || css[j] !== '{') {
      // A statement (`@import …;`, `@layer a, b;`) or a stray `}`: kept as written.
      if (prelude) nodes.push({ kind: 'verbatim', text: `${prelude};` });
      i = j + 1;
      continue;
    }
    const close = Math.min(blockEnd(css, j), end);
    const at = /^@(-?[a-z-]+)/i.exec(prelude);
    const keyframes = /^@(?:-webkit-)?keyframes\s+(\S+)/i.exec(prelude);
    if (at && GROUPS.has(at[1]!.toLowerCase())) {
      nodes.push({ kind: 'group', prelude, children: parseBlock(css, j + 1, close) });
    } else if (keyframes) {
      nodes.push({ kind: 'keyframes', name: keyframes[1]!, text: `${prelude}${css.slice(j, close)}}` });
    } else if (at) {
      nodes.push({ kind: 'verbatim', text: `${prelude}${css.slice(j, close)}}` });
    } else {
      const rule = firstPaintRule(prelude, css.slice(j + 1, close));
      if (rule) nodes.push(rule);
    }
    i = close + 1;
  }
  return nodes;
}

/**
 * `text` split at each `separator` outside brackets, strings and comments, each part as written: a block's
 * declarations at its semicolons, a selector list at its commas.
 */
function splitTopLevel(text: string, separator: ';' | ','): string[] {
  const list: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i = skipAt(text, i)) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if (c === separator && depth === 0) {
      list.push(text.slice(from, i));
      from = i + 1;
    }
  }
  list.push(text.slice(from));
  return list;
}

/** A declaration's property, lower-cased, and its value. */
function property(declaration: string): { name: string; value: string } {
  const text = withoutComments(declaration);
  const colon = text.indexOf(':');
  return colon < 0
    ? { name: '', value: '' }
    : { name: text.slice(0, colon).trim().toLowerCase(), value: text.slice(colon + 1).trim() };
}

/**
 * A style rule as a first paint needs it: without its declarations that cannot change one (`NOT_AT_FIRST_PAINT`),
 * or null when it has no other. A block with nested rules is kept whole, with every `@keyframes` it may run.
 */
function firstPaintRule(prelude: string, block: string): CssNode | null {
  const needs = selectorNeeds(prelude);
  // Its nested rules are not read one by one: any animation in it may name any `@keyframes`.
  if (block.includes('{')) {
    return {
      kind: 'rule',
      text: `${prelude}{${block}}`,
      needs,
      animations: /animation/i.test(block) ? [ANY_ANIMATION] : [],
    };
  }
  const kept = splitTopLevel(block, ';')
    .map((text) => ({ text, ...property(text) }))
    .filter(({ name }) => !NOT_AT_FIRST_PAINT.test(name));
  if (kept.every(({ name }) => name === '')) return null;
  const animations = kept.flatMap(({ name, value }) => {
    if (!ANIMATION.test(name)) return [];
    return value.includes('var(') ? [ANY_ANIMATION] : value.split(/[\s,]+/);
  });
  return { kind: 'rule', text: `${prelude}{${kept.map(({ text }) => text).join(';')}}`, needs, animations };
}

/** A CSS identifier from `i` (escapes decoded): its text and the index after it. */
function readIdent(s: string, i: number): { name: string; end: number } {
  let name = '';
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\\') {
      const hex = /^[0-9a-fA-F]{1,6}\s?/.exec(s.slice(i + 1, i + 8));
      if (hex) {
        name += String.fromCodePoint(parseInt(hex[0].trim(), 16) || 0xfffd);
        i += 1 + hex[0].length;
      } else {
        name += s[i + 1] ?? '';
        i += 2;
      }
    } else if (/[\w-]/.test(c) || c.charCodeAt(0) >= 0x80) {
      name += c;
      i++;
    } else break;
  }
  return { name, end: i };
}

/**
 * What each selector of a rule requires of the markup: its classes (`.name`, escapes decoded) and the interaction
 * states it names, outside any parentheses. Classes inside `:not()`, `:is()`, `:where()`, `:has()` are not
 * required (the rule is kept without them: more than needed, never less). `null` when a selector requires nothing.
 */
export function selectorNeeds(prelude: string): string[][] | null {
  const all: string[][] = [];
  for (const selector of splitTopLevel(prelude, ',')) {
    const needs = new Set<string>();
    for (let i = 0; i < selector.length;) {
      const c = selector[i]!;
      if (c === '.' && i + 1 < selector.length) {
        const { name, end } = readIdent(selector, i + 1);
        if (name) needs.add(name);
        i = Math.max(end, i + 1);
      } else if (c === '[') {
        let j = i;
        while (j < selector.length && selector[j] !== ']') j = skipAt(selector, j);
        const state = INTERACTION_STATES.get(selector.slice(i, j + 1).replace(/\s+/g, ''));
        if (state) needs.add(state);
        i = j + 1;
      } else if (c === '(') {
        let depth = 0;
        let j = i;
        for (; j < selector.length; j = skipAt(selector, j)) {
          if (selector[j] === '(') depth++;
          else if (selector[j] === ')' && --depth === 0) break;
        }
        i = j + 1;
      } else if (c === ':') {
        const { name, end } = readIdent(selector, i + 1);
        const state = INTERACTION_STATES.get(`:${name.toLowerCase()}`);
        if (state && selector[end] !== '(') needs.add(state);
        i = Math.max(end, i + 1);
      } else {
        i = skipAt(selector, i);
      }
    }
    if (needs.size === 0) return null;
    all.push([...needs]);
  }
  return all;
}

/**
 * How many of a page's rows fill more than its first screen (RULES 13.9): rows that draw items (a row drawn as a note
 * alone is shorter). Such a row stands some 160 px at the least, its heading and one line of its items (a grid shows
 * whole lines only, a venue's card the shortest), so seven of them and the header stand some 1,360 px or more: more
 * than a tall window.
 */
export const FIRST_SCREEN_ROWS = 7;

const ROW = ' data-row-id="';
const ITEM = ' data-item="';
const FOOTER_END = '</footer>';

/**
 * The part of a page's markup that can be on its first screen: all of it, but for what comes after its
 * `FIRST_SCREEN_ROWS`th row that draws items (the rows after it and the footer), on a page that has that many before
 * its footer. That part is styled by the whole stylesheets, linked at the end of the body, long before a shopper
 * scrolls to it; a shorter page's rows and footer can all be in the first paint and keep their rules inline, and what
 * follows the footer is read whatever the page.
 */
export function firstScreenMarkup(markup: string): string {
  const footer = markup.lastIndexOf('<footer');
  const footerEnd = markup.lastIndexOf(FOOTER_END);
  if (footer < 0 || footerEnd < footer) return markup;
  let rows = 0;
  for (let at = markup.indexOf(ROW); at >= 0 && at < footer;) {
    const next = markup.indexOf(ROW, at + ROW.length);
    // The row ends where the next one's start tag begins, or at the footer.
    const end = next >= 0 && next < footer ? markup.lastIndexOf('<', next) : footer;
    const item = markup.indexOf(ITEM, at);
    if (item >= 0 && item < end && ++rows === FIRST_SCREEN_ROWS) {
      return markup.slice(0, end) + markup.slice(footerEnd + FOOTER_END.length);
    }
    at = next;
  }
  return markup;
}

/** The class names in a page's markup (one pass over its `class` attributes), and the states it shows. */
export function markupClasses(markup: string): Set<string> {
  const classes = new Set<string>();
  for (const match of markup.matchAll(/\sclass="([^"]*)"/g)) {
    for (const name of match[1]!.split(/\s+/)) if (name) classes.add(unescapeAttribute(name));
  }
  for (const [pattern, state] of STATE_ATTRIBUTES) if (pattern.test(markup)) classes.add(state);
  return classes;
}

/** An attribute value as the browser reads it (React escapes `&`, `<`, `>`, `"` and `'`). */
function unescapeAttribute(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos));/gi, (whole, dec, hex, named) => {
    if (dec) return String.fromCodePoint(Number(dec));
    if (hex) return String.fromCodePoint(parseInt(hex as string, 16));
    return (
      ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[named.toLowerCase()] ?? whole
    );
  });
}

const usable = (rule: { needs: readonly (readonly string[])[] | null }, present: ReadonlySet<string>) =>
  rule.needs === null || rule.needs.some((needs) => needs.every((name) => present.has(name)));

/** The names of the `@keyframes` the rules the markup can use may run. */
function animationsUsed(nodes: readonly CssNode[], present: ReadonlySet<string>, into = new Set<string>()) {
  for (const node of nodes) {
    if (node.kind === 'rule' && usable(node, present)) for (const name of node.animations) into.add(name);
    else if (node.kind === 'group') animationsUsed(node.children, present, into);
  }
  return into;
}

/**
 * The stylesheet's rules the markup (its class names, `markupClasses`) can use at its first paint, as text: with
 * the `@keyframes` those rules run.
 */
export function criticalCss(nodes: readonly CssNode[], present: ReadonlySet<string>): string {
  return keptCss(nodes, present, animationsUsed(nodes, present));
}

function keptCss(nodes: readonly CssNode[], present: ReadonlySet<string>, animations: ReadonlySet<string>): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'verbatim') out += node.text;
    else if (node.kind === 'keyframes') {
      if (animations.has(node.name) || animations.has(ANY_ANIMATION)) out += node.text;
    } else if (node.kind === 'rule') {
      if (usable(node, present)) out += node.text;
    } else {
      const inner = keptCss(node.children, present, animations);
      // An empty `@layer` block is kept: where a layer is first named sets its order.
      if (inner || /^@layer\b/i.test(node.prelude)) out += `${node.prelude}{${inner}}`;
    }
  }
  return out;
}
