import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { reportClientError } from './lib/api.js';
import './styles.css';

// Anything the page did not catch goes to the server's log (spec §7 error reporting), never to the shopper.
window.addEventListener('error', (e) => reportClientError(e.error ?? e.message, 'window.onerror'));
window.addEventListener('unhandledrejection', (e) => reportClientError(e.reason, 'unhandledrejection'));

// A transition renders the first screen in slices that yield to the browser every few milliseconds, so
// starting the app never holds the main thread in one long task.
const root = createRoot(document.getElementById('root')!);
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
