import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { contentSecurityPolicy } from './electron/shell/csp.js';

// The built index.html carries the app's Content-Security-Policy as a <meta> too (defence in depth: the
// Electron protocol handler and browser mode also send it as a header). frame-ancestors is header-only.
function cspMeta(): Plugin {
  const policy = contentSecurityPolicy()
    .split('; ')
    .filter((d) => !d.startsWith('frame-ancestors'))
    .join('; ');
  return {
    name: 'mnemo-csp-meta',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: policy },
        injectTo: 'head-prepend',
      },
    ],
  };
}

// The renderer is a plain web app: the same build is loaded by Electron (app:// protocol) and by browser
// mode (served by electron/web.ts). Relative base so both can host it under any prefix.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react(), cspMeta()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2023',
  },
});
