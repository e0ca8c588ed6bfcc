import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { readPageData, seatMapsNamed, seedPageAnswers, type PageAnswer } from './app/page-data.js';
import { reportClientError } from './lib/api.js';
import { createQueryClient } from './lib/query-client.js';
import { keepInputBeforeScript } from './lib/input-before-script.js';
import { noteServedEntry } from './lib/served-entry.js';

/** Starts the storefront: hydrates the page the server rendered, or renders the app shell's page. */

// Anything the page did not catch goes to the server's log (RULES 9.10 error reporting), never to the shopper.
window.addEventListener('error', (e) => reportClientError(e.error ?? e.message, 'window.onerror'));
window.addEventListener('unhandledrejection', (e) => reportClientError(e.reason, 'unhandledrejection'));

const container = document.getElementById('root')!;

/**
 * Work a rendered page's first render would do in one long task, done before hydration in slices: the seat map's
 * labels fitted to their shapes (tens of milliseconds on a phone). Pages without one load nothing for it.
 */
async function prepareServedPage(answers: readonly PageAnswer[]): Promise<void> {
  const named = seatMapsNamed(answers);
  if (named.length === 0) return;
  const { prepareSeatMaps } = await import('./features/buying/served-seat-maps.js');
  await prepareSeatMaps(named);
}

const served = readPageData(document);
if (served) {
  // A page the server rendered: the answers it rendered with fill the cache first, so the client draws exactly
  // what the server did and asks for nothing again. Hydrating in a transition lets the browser paint between slices.
  const queryClient = createQueryClient();
  seedPageAnswers(queryClient, served.answers);
  // The entry the page is shown at: what the guest's own reports after load are about (RULES 13.7).
  noteServedEntry();
  const hydrate = () => {
    // A choice made in the page's forms before now is read before hydration resets it; its owner applies it.
    keepInputBeforeScript();
    startTransition(() => {
      hydrateRoot(
        container,
        <StrictMode>
          <App queryClient={queryClient} page={served.page} />
        </StrictMode>,
        {
          // A markup mismatch is a defect to hear about, not something for the shopper to see.
          onRecoverableError: (error) => {
            console.error('Hydration error', error);
            reportClientError(error, 'hydration');
          },
        },
      );
    });
  };
  // Whatever became of the preparation, the page is hydrated (a seat map not built yet is built as it renders).
  void prepareServedPage(served.answers)
    .catch((error: unknown) => reportClientError(error, 'hydration'))
    .finally(hydrate);
} else {
  // A transition renders the first screen in slices that yield to the browser every few milliseconds, so
  // starting the app never holds the main thread in one long task.
  const root = createRoot(container);
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}
