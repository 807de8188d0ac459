import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Preact through esbuild's own JSX transform: no framework plugin to keep in step with Vite.
// The build has no inline script or style, so the management API's CSP needs no 'unsafe-inline'.
export default defineConfig({
  base: '/',
  // the typed client from its source, as the tests read it (docs/client.md)
  resolve: { alias: { '@relay/client': fileURLToPath(new URL('../../../libs/client/src/index.ts', import.meta.url)) } },
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    // the code editor's chunk (about 500 kB, 170 kB gzip) is fetched only by the Transformation
    // tab (decision 0024); the page's own script stays far below this
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: { '/v1': 'http://127.0.0.1:8081', '/billing': 'http://127.0.0.1:8081', '/session': 'http://127.0.0.1:8081' },
  },
});
