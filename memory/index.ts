// The memory layer's entry point. See README.md for the API, the durability rule and the guards.
export { createMemory } from './memory.js';
export { MemoryError, isMemoryError } from './errors.js';
export { ROOT, parseMemoryPath, checkMemoryPath, isWithin } from './paths.js';
export { detectAddedSecret, detectSecret } from './secrets.js';
export { checkContent } from './content.js';
export * from './types.js';
