// Placeholder so others can compile against the API; the real implementation replaces this file shortly.
import { MemoryError } from './errors.js';
import type { Memory, MemoryOptions } from './types.js';

export async function createMemory(_options: MemoryOptions): Promise<Memory> {
  throw new MemoryError('closed', 'The memory layer is not implemented yet.');
}
