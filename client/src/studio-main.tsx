import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { StudioApp } from './app/studio/studio-app.js';
import './styles.css';
import './features/studio/studio.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StudioApp />
  </StrictMode>,
);
