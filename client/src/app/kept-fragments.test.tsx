import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { KeptFragment } from '../../../shared/schemas/page-render.js';
import { eagerImages, keptFragments } from './kept-fragments.js';

const storeOf = (kept: Map<string, KeptFragment>) => ({
  get: (key: string) => kept.get(key),
  set: (key: string, value: KeptFragment) => void kept.set(key, value),
});

describe('keptFragments (RULES 13.13)', () => {
  it('keeps what each marked element holds, nested ones too, and takes every mark out', () => {
    const kept = new Map<string, KeptFragment>();
    const render = keptFragments(storeOf(kept));
    const row = render.open('row');
    const footer = render.open('footer');
    expect(row).not.toBe(footer);
    const markup =
      `<main><section class="row" data-kept="${row}"><h2>A</h2><section><p>inner</p></section></section>` +
      `<footer class="f" data-kept="${footer}"><a href="/x">x</a></footer></main>`;
    expect(render.finish(markup, true)).toBe(
      '<main><section class="row"><h2>A</h2><section><p>inner</p></section></section>' +
        '<footer class="f"><a href="/x">x</a></footer></main>',
    );
    expect(kept.get('row')?.html).toBe('<h2>A</h2><section><p>inner</p></section>');
    expect(kept.get('footer')?.html).toBe('<a href="/x">x</a>');
  });

  it('keeps nothing from a render that reported an error, and still takes the marks out', () => {
    const kept = new Map<string, KeptFragment>();
    const render = keptFragments(storeOf(kept));
    const mark = render.open('row');
    expect(render.finish(`<section data-kept="${mark}"><p>x</p></section>`, false)).toBe('<section><p>x</p></section>');
    expect(kept.size).toBe(0);
  });

  it('reads no text a part holds as a mark: not another render’s, nor one React escaped', () => {
    const kept = new Map<string, KeptFragment>();
    const earlier = keptFragments(storeOf(new Map())).open('row');
    const render = keptFragments(storeOf(kept));
    const mark = render.open('row');
    const text = ` data-kept="${mark}"> data-kept="${earlier}">`;
    const markup = renderToString(
      <section {...{ 'data-kept': mark }}>
        <p>{text}</p>
        <p title={text} {...{ 'data-kept': earlier }} />
      </section>,
    );
    const out = render.finish(markup, true);
    expect(out).not.toContain(`data-kept="${mark}">`);
    expect(out).toContain(`data-kept="${earlier}"`);
    expect(kept.get('row')!.html).toBe(out.replace(/^<section>|<\/section>$/g, ''));
  });

  it('keeps each part as a string of its own, not holding the page it was cut from (RULES 13.12)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const kept = new Map<string, KeptFragment>();
    gc();
    const before = process.memoryUsage().heapUsed;
    // 200 pages of about 100 KB, each with a part of a few bytes drawn anew.
    for (let i = 0; i < 200; i++) {
      const render = keptFragments(storeOf(kept));
      const mark = render.open(`row ${i}`);
      const part = `<section data-kept="${mark}"><p>part ${i}</p></section>`;
      render.finish(`<main><p>${i} ${'x'.repeat(100_000)}</p>${part}</main>`, true);
    }
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(kept.get('row 7')?.html).toBe('<p>part 7</p>');
    // Held pages would be 20 MB.
    expect(grown).toBeLessThan(4 * 1024 * 1024);
  });

  it('gives the markup back as it was when no part was drawn anew', () => {
    const render = keptFragments(storeOf(new Map()));
    const markup = '<section><p>x</p></section>';
    expect(render.finish(markup, true)).toBe(markup);
  });
});

describe('eagerImages', () => {
  it('names the pictures React preloads: every one not lazy, with its set, sizes and priority, unescaped', () => {
    const html =
      '<img class="a" src="/a.svg?x=1&amp;y=2" alt="" loading="eager" fetchPriority="high" decoding="async"/>' +
      '<img src="/b.jpg" srcSet="/b-320.jpg 320w, /b-640.jpg 640w" sizes="50vw" alt=""/>' +
      '<img srcSet="/c-320.jpg 320w" alt=""/>' +
      '<img src="/lazy.svg" loading="lazy" alt=""/>' +
      '<img src="/low.svg" fetchPriority="low" alt=""/>' +
      '<img src="data:image/png;base64,AAAA" alt=""/>' +
      '<img alt=""/>';
    expect(eagerImages(html)).toEqual([
      { href: '/a.svg?x=1&y=2', fetchPriority: 'high' },
      { href: '/b.jpg', imageSrcSet: '/b-320.jpg 320w, /b-640.jpg 640w', imageSizes: '50vw' },
      { href: '/c-320.jpg 320w', imageSrcSet: '/c-320.jpg 320w' },
    ]);
  });
});
