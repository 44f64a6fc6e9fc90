// The e2e project keeps one module registry per worker (isolate: false) so that its Chromium (kept on
// globalThis by workerBrowser) serves every file the worker runs. Each file still starts from a fresh copy
// of every source module; node_modules packages, playwright-core among them, stay shared.
import { vi } from 'vitest';

vi.resetModules();
