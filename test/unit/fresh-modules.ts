// The unit project runs its files in one module registry per worker (isolate: false): importing the same
// modules again for every file cost more than the tests. Source modules keep state (caches, registries), so
// each file starts from a fresh copy of every one; node_modules packages stay shared.
import { vi } from 'vitest';

vi.resetModules();
