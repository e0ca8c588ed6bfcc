import type { QueryClient } from '@tanstack/react-query';
import { Writable } from 'node:stream';
import { StrictMode } from 'react';
import { renderToPipeableStream, renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { Storefront } from './app/app.js';
import { AppLinkNavigation } from './components/app-link.js';
import { RequestPlace } from './app/page-context.js';
import type { ChosenPlace } from '../../shared/rules/location.js';
import type { FragmentStore, PageContextValue } from '../../shared/schemas/page-render.js';
import { KeptMarkupContext, type KeptMarkupRender } from './components/kept-markup.js';
import { keptFragments } from './app/kept-fragments.js';
import { pageDataJson } from './app/page-data.js';
import { pageHead, type PageHead } from './app/page-head.js';
import type { PagePlan } from './app/page-queries.js';
import { createQueryClient } from './lib/query-client.js';

/**
 * The storefront rendered on the server: the same components as in the browser, drawn from the API answers the
 * server read through its own services. Built by Vite for Node (`vite build --ssr`) and loaded by the server.
 */
export { pagePlan, type PagePlan, type PageQuery, type RenderedPageKind } from './app/page-queries.js';
export type { PageHead } from './app/page-head.js';
export { PAGE_DATA_ID } from './app/page-data.js';
export { SITE_ID } from './lib/api.js';

export interface RenderInput {
  /** The page's path and query (`/category/nfl?zip=10001`). */
  url: string;
  /** The page's plan (`pagePlan`), for its head. */
  plan: PagePlan;
  /** Each answer under the client's query key; a query the server could not answer is left out (the client asks). */
  answers: readonly { queryKey: readonly unknown[]; data: unknown }[];
  page: PageContextValue;
  /** The shopper's place, from the request's cookie: the pages draw for it, as the browser will. */
  place: ChosenPlace;
  /** Where parts drawn before are kept (RULES 13.13); none: every part is drawn. */
  fragments?: FragmentStore;
}

export interface RenderedPage {
  head: PageHead;
  /** The page data for the client (`<script type="application/json">`), escaped for use inside a script element. */
  data: string;
  /**
   * The page's markup, whole, with its kept parts filed (RULES 13.13). Once: a streamed render's markup is read from
   * its stream, the bytes decoded once (a chunk may end inside a character).
   */
  markup(): Promise<string>;
}

/** Everything a render streams, as one string. */
function written(stream: { pipe(destination: NodeJS.WritableStream): void }): Promise<string> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    stream.pipe(
      new Writable({
        write(chunk: Buffer | string, _encoding, done) {
          chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
          done();
        },
        final(done) {
          resolve(Buffer.concat(chunks).toString('utf8'));
          done();
        },
        destroy(err, done) {
          if (err) reject(err);
          done(err);
        },
      }),
    );
  });
}

/** How long a render may take before it is given up (the server then sends the page without its markup). */
const RENDER_TIMEOUT_MS = 5_000;

/**
 * What React writes at the start of a boundary it left for the client to draw: a part that suspended (a page's
 * module on its first load) or threw. Never in text or an attribute (React escapes `<` there), nor in a kept part
 * (a render that left one keeps nothing).
 */
const CLIENT_DRAWN = '<!--$!';

/** The page as the browser's `App` draws it, over the server's query client and kept parts. */
function pageTree(input: RenderInput, queryClient: QueryClient, kept: KeptMarkupRender | null) {
  return (
    <StrictMode>
      <RequestPlace value={{ place: input.place }}>
        <StaticRouter location={input.url}>
          {/* No GrowthBook on the server: the layout's variation came with the layout answer, and every other
              feature is off until the page's GrowthBook starts in the browser, as it is while hydrating. The same
              tree as in the browser (`App`), so the same ids. */}
          <AppLinkNavigation>
            <KeptMarkupContext value={kept}>
              <Storefront queryClient={queryClient} page={input.page} />
            </KeptMarkupContext>
          </AppLinkNavigation>
        </StaticRouter>
      </RequestPlace>
    </StrictMode>
  );
}

/**
 * Renders the page once everything in it is ready. Most pages have nothing to wait for (every answer is in the
 * query client, and a page's module is loaded after its first page): those are written at once as a string, about a
 * quarter less work than a stream's bytes read back (bench/RESULTS.md). A page that would wait or that failed is
 * rendered again as a stream, whole when all is ready (`onAllReady`), with no suspended boundary to fill in later,
 * which would need an inline script the CSP does not allow; it says what failed.
 */
export function renderPage(input: RenderInput): Promise<RenderedPage> {
  const queryClient: QueryClient = createQueryClient('server');
  for (const { queryKey, data } of input.answers) queryClient.setQueryData(queryKey, data);
  const data = pageDataJson({
    answers: input.answers.map(({ queryKey, data }) => ({ key: queryKey, data })),
    page: input.page,
  });
  const head = pageHead(input.plan, (key) => queryClient.getQueryData(key), {
    origin: input.page.origin,
    url: new URL(`${input.page.origin}${input.url}`),
    status: input.page.status,
  });
  const kept = input.fragments ? keptFragments(input.fragments) : null;
  let markup: string | undefined;
  try {
    markup = renderToString(pageTree(input, queryClient, kept));
  } catch {
    // A part outside every boundary suspended or threw: the stream below waits for it, or says what failed.
  }
  if (markup !== undefined && !markup.includes(CLIENT_DRAWN)) {
    const written = markup;
    return Promise.resolve({ head, data, markup: () => Promise.resolve(kept ? kept.finish(written, true) : written) });
  }
  return streamed(input, queryClient, { head, data });
}

/** The render as a stream, whole once everything in it is ready (`renderPage`). */
function streamed(
  input: RenderInput,
  queryClient: QueryClient,
  ready: Pick<RenderedPage, 'head' | 'data'>,
): Promise<RenderedPage> {
  // Parts numbered anew: what the string render opened is never written.
  const kept = input.fragments ? keptFragments(input.fragments) : null;
  let failed = false;
  return new Promise((resolve, reject) => {
    let settled = false;
    const stream = renderToPipeableStream(pageTree(input, queryClient, kept), {
      // Never outline a boundary to fill in later: that takes an inline script, which the CSP does not allow.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady() {
        settled = true;
        clearTimeout(timer);
        resolve({
          ...ready,
          markup: () => written(stream).then((markup) => (kept ? kept.finish(markup, !failed) : markup)),
        });
      },
      onShellError(error) {
        settled = true;
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
      onError(error) {
        // A component that throws is drawn by the client instead; the server says why.
        failed = true;
        console.error('server render error', error);
      },
    });
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      stream.abort(new Error('render timed out'));
      reject(new Error(`render of ${input.url} took over ${RENDER_TIMEOUT_MS} ms`));
    }, RENDER_TIMEOUT_MS);
  });
}
