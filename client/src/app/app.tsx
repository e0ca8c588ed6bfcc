import { BrowserRouter, Route, Routes } from 'react-router';
import { SiteLayout } from '../features/layout/site-layout.js';
import { HomePage } from './pages/home-page.js';
import { NotFoundPage } from './pages/not-found-page.js';

export function App() {
  return (
    <BrowserRouter>
      <Routes>
        <Route element={<SiteLayout />}>
          <Route index element={<HomePage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
