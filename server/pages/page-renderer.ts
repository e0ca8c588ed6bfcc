import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * The client's server renderer (`client/src/entry-server.tsx`, built by `vite build --ssr` into
 * `dist/ssr/entry-server.js`), as the server uses it. Declared here, in the server's own terms, so the server
 * compiles without the client's sources; `page-renderer.test.ts` checks the client's module fits it.
 */
export interface PageQuery {
  queryKey: readonly unknown[];
  /** The API address the client would fetch (path and query). */
  path: string;
}

export type RenderedPageKind = 'home' | 'category' | 'event' | 'performer' | 'venue' | 'results' | 'info' | 'not-found';

export interface PagePlan {
  kind: RenderedPageKind;
  shell: PageQuery[];
  own: PageQuery[];
  module?: string;
}

export interface PageHead {
  title: string;
  description: string;
  canonical: string;
  image: string | null;
  type: 'website' | 'article';
  siteName: string;
  noindex: boolean;
}

export interface RenderedPage {
  head: PageHead;
  data: string;
  pipe(destination: NodeJS.WritableStream): void;
}

export interface PageRenderer {
  /** The site id the client sends (`X-Site-Id`): the brand its pages are drawn for. */
  SITE_ID: string;
  /** The id of the element the page data goes in. */
  PAGE_DATA_ID: string;
  pagePlan(url: URL, cookies: string): PagePlan | null;
  renderPage(input: { url: string; plan: PagePlan; answers: readonly { queryKey: readonly unknown[]; data: unknown }[]; page: { origin: string; status: number } }): Promise<RenderedPage>;
}

/** The built renderer beside the built client, or undefined when there is none (`npm run dev`: the client renders alone). */
export async function loadPageRenderer(file: string): Promise<PageRenderer | undefined> {
  if (!existsSync(file)) return undefined;
  return (await import(pathToFileURL(file).href)) as PageRenderer;
}
