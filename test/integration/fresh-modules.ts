// The integration project runs its files in one module registry per worker (isolate: false), as the unit
// project does: a process and the SDK, zod and the other packages once per worker rather than once per
// file. Source modules keep state (caches, registries, the backend's singletons), so each file starts from
// a fresh copy of every one; node_modules packages stay shared.
import { vi } from 'vitest';

vi.resetModules();
