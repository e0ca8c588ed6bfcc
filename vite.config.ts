import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3000'}`;

export default defineConfig({
  root: 'client',
  plugins: [react()],
  // Maps are written beside the bundles (for an error tracker) but not referenced from them; the server
  // publishes them only with SERVE_SOURCE_MAPS=true.
  build: { outDir: '../dist/client', emptyOutDir: true, sourcemap: 'hidden' },
  server: {
    host: '127.0.0.1',
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: { '/api': apiTarget, '/media': apiTarget, '/sub': apiTarget, '/healthz': apiTarget, '/readyz': apiTarget },
  },
});
