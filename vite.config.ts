import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3000'}`;

export default defineConfig(({ mode, isSsrBuild }) => ({
  root: 'client',
  plugins: [react()],
  // The server's renderer (`vite build --ssr`) carries every module it needs, React included, so the server
  // needs no client packages installed at run time.
  ssr: { noExternal: true, target: 'node' },
  // Maps are written beside the bundles (for an error tracker) but not referenced from them; the server
  // publishes them only with SERVE_SOURCE_MAPS=true.
  //
  // The studio is built on its own (`vite build --mode studio`, into the same folder), so the storefront's
  // bundles are exactly what they are without it: nothing of the studio, its editor above all, and no chunk
  // split differently because a second page shares modules with the first.
  build: isSsrBuild
    ? {
        outDir: '../dist/ssr',
        emptyOutDir: true,
        sourcemap: true,
        copyPublicDir: false,
        rollupOptions: {
          input: fileURLToPath(new URL('client/src/entry-server.tsx', import.meta.url)),
          output: { entryFileNames: 'entry-server.js', codeSplitting: false },
        },
      }
    : mode === 'studio'
      ? {
          outDir: '../dist/client',
          emptyOutDir: false,
          sourcemap: 'hidden',
          // A preview link's page (RULES 18.3) is built with the studio: the rows it draws, none of the editor.
          rollupOptions: {
            input: {
              studio: fileURLToPath(new URL('client/studio.html', import.meta.url)),
              preview: fileURLToPath(new URL('client/preview.html', import.meta.url)),
            },
          },
        }
      : // The manifest tells the server which script and stylesheet files each page's own module became.
        { outDir: '../dist/client', emptyOutDir: true, sourcemap: 'hidden', manifest: true },
  server: {
    host: '127.0.0.1',
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: { '/api': apiTarget, '/media': apiTarget, '/sub': apiTarget, '/healthz': apiTarget, '/readyz': apiTarget },
  },
}));
