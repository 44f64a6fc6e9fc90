import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Four projects (house-style "Tests"): unit and integration run the Node code under plain Node; renderer
// runs components in jsdom against the in-memory transport; e2e drives the built renderer in Debian's
// Chromium against browser mode. The machine has two cores, so e2e files run one at a time, each with
// its own shared Chromium.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          setupFiles: ['test/unit/fresh-modules.ts'],
          // Inlined so test/unit/shell/settings-file.test.ts can give it a stand-in for `electron`.
          server: { deps: { inline: ['electron-store'] } },
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          // test/live-window: the renderer's stores (plain TypeScript, no DOM) against the real backend.
          include: ['test/integration/**/*.test.ts', 'test/live-window/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'renderer',
          include: ['test/renderer/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          isolate: false,
          setupFiles: ['test/renderer/fresh-modules.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
});
