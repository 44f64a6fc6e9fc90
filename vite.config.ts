import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is a plain web app: the same build is loaded by Electron (custom protocol) and by
// browser mode (served by electron/web.ts). Relative base so both can host it under any prefix.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2023',
  },
});
