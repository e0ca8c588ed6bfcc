import { describe, expect, it } from 'vitest';
import { imagePreloadLinks } from './page-document.js';

describe('the image preloads of a rendered page (RULES 13.15)', () => {
  it('moves the ones at the start of the markup to Link header values, in order', () => {
    const markup =
      '<link rel="preload" as="image" href="/brands/base/logo.svg"/>' +
      '<link rel="preload" as="image" href="/media/performers/1051.svg" fetchPriority="high"/>' +
      // As React writes a preload asked for with `preload()`: its attributes in another order.
      '<link rel="preload" href="/media/performers/1052.svg" as="image" fetchPriority="high"/>' +
      '<a class="skip-link" href="#main">Skip</a><link rel="preload" as="image" href="/later.svg"/>';
    expect(imagePreloadLinks(markup)).toEqual({
      markup: '<a class="skip-link" href="#main">Skip</a><link rel="preload" as="image" href="/later.svg"/>',
      links: [
        '</brands/base/logo.svg>; rel=preload; as=image',
        '</media/performers/1051.svg>; rel=preload; as=image; fetchpriority=high',
        '</media/performers/1052.svg>; rel=preload; as=image; fetchpriority=high',
      ],
    });
  });

  it('leaves a preload a header could not carry as it is, and those after it', () => {
    for (const first of [
      '<link rel="preload" as="image" href="https://elsewhere.example/a.svg"/>',
      '<link rel="preload" as="image" href="/a.svg?w=640&amp;q=75"/>',
      '<link rel="preload" as="image" imageSrcSet="/a.svg 1x"/>',
      '<link rel="preload" as="image" href="/a b.svg"/>',
      '<link rel="preload" as="image" href="/a.svg" crossOrigin=""/>',
      '<link rel="preload" as="image" href="/a.svg" fetchPriority="urgent"/>',
      '<link rel="preload" as="style" href="/a.css"/>',
    ]) {
      const markup = `${first}<link rel="preload" as="image" href="/b.svg"/><main></main>`;
      expect(imagePreloadLinks(markup)).toEqual({ markup, links: [] });
    }
    expect(imagePreloadLinks('<main></main>')).toEqual({ markup: '<main></main>', links: [] });
  });

  it('stops before the header would pass 2,000 characters', () => {
    const tag = (i: number) => `<link rel="preload" as="image" href="/media/performers/${1000 + i}.svg"/>`;
    const markup = `${Array.from({ length: 60 }, (_, i) => tag(i)).join('')}<main></main>`;
    const { markup: rest, links } = imagePreloadLinks(markup);
    expect(links.join(', ').length).toBeLessThanOrEqual(2_000);
    expect(links.length).toBeGreaterThan(30);
    const left = Array.from({ length: 60 - links.length }, (_, i) => tag(links.length + i));
    expect(rest).toBe(`${left.join('')}<main></main>`);
  });
});
