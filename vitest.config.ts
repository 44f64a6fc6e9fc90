import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Four projects (house-style "Tests"): unit and integration run the Node code under plain Node; renderer
// runs components in jsdom against the in-memory transport; e2e drives the built renderer in Debian's
// Chromium against browser mode, one Chromium per worker.
//
// Files run in parallel, more of them than there are cores: most of the suite waits on child processes,
// sockets and the disk rather than the CPU. MNEMO_TEST_WORKERS overrides the count.
const workers = Number(process.env.MNEMO_TEST_WORKERS) || Math.max(2, Math.round(availableParallelism() * 2));

// The suite starts hundreds of Node processes (the faces, the fault workers, two devices syncing), each
// compiling the same modules; V8's code cache, shared through this folder, spares them most of that.
process.env.NODE_COMPILE_CACHE ??= path.join(tmpdir(), 'mnemo-node-compile-cache');

export default defineConfig({
  test: {
    maxWorkers: workers,
    reporters: ['default', './test/slowest-files.ts'],
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
          isolate: false,
          setupFiles: ['test/integration/fresh-modules.ts'],
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
          isolate: false,
          setupFiles: ['test/e2e/support/fresh-modules.ts'],
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
});
