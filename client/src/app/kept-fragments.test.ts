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
    expect(render.open('row')).toBe(0);
    expect(render.open('footer')).toBe(1);
    const markup =
      '<main><section class="row" data-kept="0"><h2>A</h2><section><p>inner</p></section></section>' +
      '<footer class="f" data-kept="1"><a href="/x">x</a></footer></main>';
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
    render.open('row');
    expect(render.finish('<section data-kept="0"><p>x</p></section>', false)).toBe('<section><p>x</p></section>');
    expect(kept.size).toBe(0);
  });

  it('reads nothing as a mark that the data wrote: React escapes its quotes', () => {
    const kept = new Map<string, KeptFragment>();
    const render = keptFragments(storeOf(kept));
    render.open('row');
    const markup = '<section data-kept="0"><p>data-kept=&quot;0&quot;&gt;</p></section>';
    expect(render.finish(markup, true)).toBe('<section><p>data-kept=&quot;0&quot;&gt;</p></section>');
    expect(kept.get('row')?.html).toBe('<p>data-kept=&quot;0&quot;&gt;</p>');
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
      '<img src="/lazy.svg" loading="lazy" alt=""/>' +
      '<img src="/low.svg" fetchPriority="low" alt=""/>' +
      '<img alt=""/>';
    expect(eagerImages(html)).toEqual([
      { href: '/a.svg?x=1&y=2', fetchPriority: 'high' },
      { href: '/b.jpg', imageSrcSet: '/b-320.jpg 320w, /b-640.jpg 640w', imageSizes: '50vw' },
    ]);
  });
});
