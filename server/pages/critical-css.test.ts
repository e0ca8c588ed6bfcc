import { describe, expect, it } from 'vitest';
import {
  criticalCss,
  FIRST_SCREEN_ROWS,
  firstScreenMarkup,
  markupClasses,
  parseCss,
  selectorNeeds,
} from './critical-css.js';

/** The rules of `css` that markup with `classes` can use. */
const critical = (css: string, classes: string[]) => criticalCss(parseCss(css), new Set(classes));

describe('the critical part of a stylesheet', () => {
  it('keeps a rule when one of its selectors has every class it needs, and drops it when a class is missing', () => {
    const css = '.a .b{color:red}.a.c{color:blue}.d,.a>.b{margin:0}';
    expect(critical(css, ['a', 'b'])).toBe('.a .b{color:red}.d,.a>.b{margin:0}');
    expect(critical(css, ['a'])).toBe('');
    expect(critical(css, ['d'])).toBe('.d,.a>.b{margin:0}');
  });

  it('always keeps element, :root and * rules, @font-face and statements', () => {
    const css =
      '@charset "utf-8";@import url("x.css");:root{--x:1}*{box-sizing:border-box}' +
      'body{margin:0}a:focus-visible{outline:1px}' +
      '@font-face{font-family:x;src:url(x.woff2)}' +
      '.gone{color:red}';
    expect(critical(css, [])).toBe(
      '@charset "utf-8";@import url("x.css");:root{--x:1}*{box-sizing:border-box}' +
        'body{margin:0}a:focus-visible{outline:1px}' +
        '@font-face{font-family:x;src:url(x.woff2)}',
    );
  });

  it('keeps a @keyframes only when a kept rule may run it', () => {
    const css =
      '@keyframes spin{from{transform:none}to{transform:rotate(1turn)}}@-webkit-keyframes fade{to{opacity:0}}' +
      '@keyframes shimmer{to{background-position:-200% 0}}' +
      '.a{animation:spin 1s linear infinite}.b{animation-name:fade,shimmer}.c{animation:var(--x)}';
    expect(critical(css, [])).toBe('');
    expect(critical(css, ['a'])).toBe(
      '@keyframes spin{from{transform:none}to{transform:rotate(1turn)}}.a{animation:spin 1s linear infinite}',
    );
    expect(critical(css, ['b'])).toBe(
      '@-webkit-keyframes fade{to{opacity:0}}@keyframes shimmer{to{background-position:-200% 0}}' +
        '.b{animation-name:fade,shimmer}',
    );
    // A name from a custom property could be any of them.
    expect(critical(`@media (width>=1px){${css}}`, ['c'])).toBe(
      '@media (width>=1px){@keyframes spin{from{transform:none}to{transform:rotate(1turn)}}' +
        '@-webkit-keyframes fade{to{opacity:0}}@keyframes shimmer{to{background-position:-200% 0}}' +
        '.c{animation:var(--x)}}',
    );
  });

  it('leaves out transitions, which only run once a style changes, and a rule with nothing else', () => {
    const css =
      '.a{color:red;transition:color .15s;-webkit-transition-duration:1s}.b{transition:none}' +
      '.c{ Transition-Property : opacity ; opacity:0.5; }.d{background:url("x;transition:y");transition:x}' +
      '@media (prefers-reduced-motion:reduce){.a,.b{transition:none}}.e{color:red;&:hover{transition:none}}';
    expect(critical(css, ['a', 'b', 'c', 'd', 'e'])).toBe(
      '.a{color:red}.c{ opacity:0.5; }.d{background:url("x;transition:y")}.e{color:red;&:hover{transition:none}}',
    );
  });

  it('does not require the classes inside :not(), :is(), :where() or :has()', () => {
    expect(selectorNeeds('.row:not(.row--wide) > .card')).toEqual([['row', 'card']]);
    expect(selectorNeeds(':is(.x, .y) p')).toBeNull();
    expect(critical('.a:not(.b){color:red}.a:has(.c:not(.d)){margin:0}', ['a'])).toBe(
      '.a:not(.b){color:red}.a:has(.c:not(.d)){margin:0}',
    );
  });

  it('filters inside @media, @supports and @layer, nested, and drops an emptied block but for @layer', () => {
    const css =
      '@media (min-width:40em){.a{color:red}.b{color:blue}@supports (display:grid){.a{display:grid}.b{display:grid}}}' +
      '@media (prefers-reduced-motion:reduce){.b{animation:none}}' +
      '@media (forced-colors:active){.a:focus-visible{outline:2px solid CanvasText}}' +
      '@layer base{.b{margin:0}}';
    expect(critical(css, ['a'])).toBe(
      '@media (min-width:40em){.a{color:red}@supports (display:grid){.a{display:grid}}}' +
        '@media (forced-colors:active){.a:focus-visible{outline:2px solid CanvasText}}' +
        '@layer base{}',
    );
  });

  it('reads braces, commas and dots inside strings, comments and escapes as text', () => {
    const css =
      '/* .x { */.a::before{content:"} .b {";}' +
      ".c[data-x='a,.b{'] ,.d{content:'\\'}'}" +
      '.sm\\:flex{display:flex}.e\\{{color:red}.\\31 0{color:blue}' +
      '.f{color:red/* } */}';
    const nodes = parseCss(css);
    expect(nodes.map((n) => n.kind)).toEqual(['rule', 'rule', 'rule', 'rule', 'rule', 'rule']);
    expect(critical(css, ['a'])).toBe('.a::before{content:"} .b {";}');
    expect(critical(css, ['c'])).toBe(".c[data-x='a,.b{'] ,.d{content:'\\'}'}");
    expect(critical(css, ['b'])).toBe('');
    expect(critical(css, ['sm:flex', 'e{', '10'])).toBe('.sm\\:flex{display:flex}.e\\{{color:red}.\\31 0{color:blue}');
    expect(critical(css, ['f'])).toBe('.f{color:red/* } */}');
  });

  it('keeps a nested style rule whole with its parent, and every @keyframes it may run', () => {
    expect(critical('.a{color:red;&:focus-visible{outline:0}.b &{margin:0}}.c{x:y}', ['a'])).toBe(
      '.a{color:red;&:focus-visible{outline:0}.b &{margin:0}}',
    );
    const spin = '@keyframes spin{to{transform:rotate(1turn)}}';
    expect(critical(`${spin}.a{animation:spin 1s;&:hover{color:red}}`, ['a'])).toBe(
      `${spin}.a{animation:spin 1s;&:hover{color:red}}`,
    );
    expect(critical(`${spin}.a{color:red;&:hover{color:blue}}`, ['a'])).toBe('.a{color:red;&:hover{color:blue}}');
  });

  it('leaves out rules for hover, press and opened or chosen states the markup does not show', () => {
    const css =
      '.m:hover,.m[aria-expanded=true]{color:red}.t[aria-selected="true"]{color:blue}details[open] .p{margin:0}' +
      '.m:focus-visible{outline:1px}.m:not(:hover){color:green}';
    expect(critical(css, ['m', 't', 'p'])).toBe('.m:focus-visible{outline:1px}.m:not(:hover){color:green}');
    const shown = markupClasses('<button class="m" aria-expanded="true"></button><details open=""><p class="p"></p>');
    expect(criticalCss(parseCss(css), shown)).toBe(
      '.m:hover,.m[aria-expanded=true]{color:red}details[open] .p{margin:0}' +
        '.m:focus-visible{outline:1px}.m:not(:hover){color:green}',
    );
  });

  it('reads the class names of the markup, attribute escapes decoded', () => {
    expect([
      ...markupClasses('<div class="a  b"><svg class="c"></svg><p class="x&amp;y"></p><p data-class="no">'),
    ]).toEqual(['a', 'b', 'c', 'x&y']);
  });

  it('keeps a malformed tail rather than dropping it', () => {
    expect(critical('.a{color:red}.b{color:blue', ['b'])).toBe('.b{color:blue}');
    expect(critical('body{margin:0}}.a{color:red}', ['a'])).toBe('body{margin:0}.a{color:red}');
  });

  it('reads what follows the seventh row that draws items as off the first screen, and no sooner', () => {
    const item = (n: number) => `<li><a class="card" data-item="event:${n}" href="/e/${n}">${n}</a></li>`;
    const row = (id: string, items: number, kind = 'row--cards') =>
      `<section class="row ${kind}" data-row-id="${id}"><h2>${id}</h2>` +
      (items > 0
        ? `<ul>${Array.from({ length: items }, (_, i) => item(i)).join('')}</ul>`
        : '<p class="row__note">Nothing here yet near you.</p>') +
      '</section>';
    const footer = '<footer class="nav-footer"><p class="nav-footer__note">Resale</p></footer>';
    const page = (items: number[], after = '', later = '') =>
      `<header class="nav-header"></header><main>${items.map((n, i) => row(`r${i}`, n)).join('')}${later}</main>` +
      `${footer}${after}`;
    const rows = FIRST_SCREEN_ROWS;
    // The footer after them, and rows after them, are left out; what follows the footer is read.
    const long = page(Array(rows).fill(1), '<div class="after-footer"></div>');
    expect(firstScreenMarkup(long)).toBe(long.replace(footer, ''));
    expect(markupClasses(firstScreenMarkup(long))).toEqual(
      new Set(['nav-header', 'row', 'row--cards', 'card', 'after-footer']),
    );
    const longer = page(Array(rows).fill(3), '', row('later', 3, 'row--venues'));
    expect(firstScreenMarkup(longer)).toBe(longer.slice(0, longer.indexOf('<section class="row row--venues"')));
    expect(markupClasses(firstScreenMarkup(longer)).has('row--venues')).toBe(false);
    // One row fewer that draws items, or a row drawn as a note alone in its place, leaves the page whole.
    for (const short of [page(Array(rows - 1).fill(20)), page([...Array(rows - 1).fill(20), 0]), page([])])
      expect(firstScreenMarkup(short)).toBe(short);
    // A row drawn as a note does not count, but does not end the count either: the rows after it complete it.
    const withNote = page([1, 0, ...Array(rows - 1).fill(1)]);
    expect(firstScreenMarkup(withNote)).toBe(withNote.replace(footer, ''));
    // A page without a footer, or with rows only after it, is read whole.
    const noFooter = long.replace(footer, '');
    expect(firstScreenMarkup(noFooter)).toBe(noFooter);
    const rowsAfter = `${footer}${page(Array(rows).fill(1)).replace(footer, '')}`;
    expect(firstScreenMarkup(rowsAfter)).toBe(rowsAfter);
  });
});
