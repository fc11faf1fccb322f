import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The window's build: renderer/ into dist/renderer/, served by `design-sync ui` (and by the Electron shell through its
 * app:// protocol). Relative asset paths, no inline script (the hosts' CSP forbids it), no source maps shipped.
 */
export default defineConfig({
  root: resolve(import.meta.dirname, 'renderer'),
  base: './',
  plugins: [react()],
  // The 3D preview's model worker (renderer/src/views/design/model-worker.ts): an ES module worker, a file of its own
  // served from the window's origin (the CSP's worker-src 'self'), never a blob: or data: URL.
  worker: { format: 'es' },
  build: {
    outDir: resolve(import.meta.dirname, 'dist/renderer'),
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
});
