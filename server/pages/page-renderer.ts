import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { ChosenPlace } from '../../shared/rules/location.js';
import type { FragmentStore, PageContextValue, PageHead, PagePlan } from '../../shared/schemas/page-render.js';

export type { PageHead, PagePlan, PageQuery, RenderedPageKind } from '../../shared/schemas/page-render.js';

export interface RenderedPage {
  head: PageHead;
  data: string;
  /** The page's markup, whole. */
  markup(): Promise<string>;
}

/**
 * The client's server renderer (`client/src/entry-server.tsx`, built by `vite build --ssr` into
 * `dist/ssr/entry-server.js`), as the server uses it: declared here so the server compiles without the client's
 * sources; `rendered-pages.test.ts` uses the client's module as one, so the two cannot drift apart.
 */
export interface PageRenderer {
  /** The site id the client sends (`X-Site-Id`): the brand its pages are drawn for. */
  SITE_ID: string;
  /** The id of the element the page data goes in. */
  PAGE_DATA_ID: string;
  /** The page at `url` for the shopper's place (from the request's cookie), or null for a page it does not render. */
  pagePlan(url: URL, place: ChosenPlace): PagePlan | null;
  renderPage(input: {
    url: string;
    plan: PagePlan;
    answers: readonly { queryKey: readonly unknown[]; data: unknown }[];
    page: PageContextValue;
    place: ChosenPlace;
    /** Parts drawn before, written again as text (RULES 13.13). */
    fragments?: FragmentStore;
  }): Promise<RenderedPage>;
}

/**
 * The built renderer beside the built client, or undefined when there is none (`npm run dev`: the client renders
 * alone).
 */
export async function loadPageRenderer(file: string): Promise<PageRenderer | undefined> {
  if (!existsSync(file)) return undefined;
  return (await import(pathToFileURL(file).href)) as PageRenderer;
}
