import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BrandRegistrySchema } from '../../shared/schemas/brand-registry.js';
import { writeBuiltClient } from '../test/built-client.js';
import { FIRST_SCREEN_ROWS } from './critical-css.js';
import { imagePreloadLinks, PageDocument } from './page-document.js';

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

describe('the inline stylesheet of a page with more rows than a first screen holds (RULES 13.9)', () => {
  it('leaves the rules only its footer uses to the linked stylesheets, and keeps them for a shorter page', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'page-document-'));
    try {
      await writeBuiltClient(dir);
      const document = new PageDocument(dir);
      // The shipped brand registry's default brand.
      const registry = BrandRegistrySchema.parse(JSON.parse(await readFile('segments/brands.json', 'utf8')));
      const brand = registry.brands.find((b) => b.id === registry.defaultBrand)!;
      const head = {
        title: 'Tickets',
        description: 'Tickets near you',
        canonical: 'https://tickets.example.com/',
        image: null,
        type: 'website' as const,
        siteName: 'Ticket Storefront',
        noindex: false,
      };
      const row = (n: number) =>
        `<section class="row" data-row-id="r${n}"><h2>Row ${n}</h2>` +
        `<a class="card" data-item="event:${n}">x</a></section>`;
      const page = (rows: number) =>
        `<main>${Array.from({ length: rows }, (_, i) => row(i)).join('')}</main>` +
        '<footer class="nav-footer"><p>Resale</p></footer>';
      const inline = (rows: number) =>
        /<style>([\s\S]*?)<\/style>/.exec(
          document.parts(head, brand, undefined, { id: 'page-data', json: '{}' }, page(rows)).start,
        )![1]!;
      // The fixture's stylesheet: `body{margin:0}.row{display:block}.nav-footer{display:block}`, `.card{…}`.
      expect(inline(FIRST_SCREEN_ROWS)).toContain('.row{display:block}');
      expect(inline(FIRST_SCREEN_ROWS)).toContain('.card{display:block}');
      expect(inline(FIRST_SCREEN_ROWS)).not.toContain('.nav-footer');
      expect(inline(FIRST_SCREEN_ROWS - 1)).toContain('.nav-footer{display:block}');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
