// The renderer project runs its files in one module registry per worker (isolate: false): importing React,
// jsdom's globals and the app's modules once per file cost most of the project's time. The app's stores keep
// module state (zustand stores, bridge bindings, listener sets), so each file starts from a fresh copy of
// every source module; only node_modules packages, which keep no state of ours, stay shared.
import { vi } from 'vitest';

vi.resetModules();
document.body.innerHTML = '';
sessionStorage.clear();
localStorage.clear();
