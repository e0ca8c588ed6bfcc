import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SharedPreviewApp } from './app/preview/shared-preview-app.js';
import './styles.css';
import './features/studio/studio.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SharedPreviewApp />
  </StrictMode>,
);
