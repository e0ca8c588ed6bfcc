import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { reportClientError } from './lib/api.js';
import './styles.css';

// Anything the page did not catch goes to the server's log (spec §7 error reporting), never to the shopper.
window.addEventListener('error', (e) => reportClientError(e.error ?? e.message, 'window.onerror'));
window.addEventListener('unhandledrejection', (e) => reportClientError(e.reason, 'unhandledrejection'));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
