import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const firstFrame = resolve(import.meta.dirname, 'renderer/src/first-frame');

/**
 * The window's first frame (shared/contract/first-frame.ts): the library's first screen rendered to markup by the
 * window host, one self-contained ES module for Node (React's server renderer included), into dist/first-frame/ beside
 * dist/renderer/. In this build the contract is one that asks nothing and the stores' hook reads their current state.
 */
export default defineConfig({
  root: resolve(import.meta.dirname, 'renderer'),
  publicDir: false,
  plugins: [react()],
  // React's production build, and JSX compiled for it, whatever NODE_ENV the build runs under (the tests' is "test").
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  oxc: { jsx: { runtime: 'automatic', development: false } },
  resolve: {
    alias: [
      { find: /^(\.\.?\/)+contract\/contract$/, replacement: resolve(firstFrame, 'server-contract.ts') },
      { find: /^zustand$/, replacement: resolve(firstFrame, 'zustand-on-server.ts') },
    ],
  },
  ssr: { noExternal: true },
  build: {
    ssr: resolve(firstFrame, 'render-first-frame.tsx'),
    // Where the window host looks for it (FIRST_FRAME_FOLDER and FIRST_FRAME_FILE of shared/contract/first-frame.ts).
    outDir: resolve(import.meta.dirname, 'dist', 'first-frame'),
    emptyOutDir: true,
    sourcemap: false,
    // Its chunks (the views the first frame never draws, three.js among them) are never sent to a browser.
    chunkSizeWarningLimit: 4096,
    // .mjs: Node reads them as ES modules wherever the build is put, with or without a package.json saying so.
    rollupOptions: { output: { entryFileNames: 'render-first-frame.mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' } },
  },
});
