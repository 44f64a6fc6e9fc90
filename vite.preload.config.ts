import { defineConfig } from 'vite';

// The preload runs sandboxed: it may require 'electron' and nothing else, so it must be one self-contained
// CommonJS file. This builds electron/preload.cts (and the channel names it imports; no zod) into
// dist/electron/preload.cjs, replacing tsc's unbundled output of the same file. Run by `npm run build:node`
// after tsc.
export default defineConfig({
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: 'dist/electron',
    emptyOutDir: false,
    sourcemap: false,
    minify: false,
    target: 'es2023',
    lib: {
      entry: 'electron/preload.cts',
      formats: ['cjs'],
      fileName: () => 'preload.cjs',
    },
    rollupOptions: { external: ['electron'] },
  },
});
