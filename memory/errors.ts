// The one error type of the memory layer. Messages are written for a person (or the model) and never
// contain an absolute host path or a stack; the contract's memory.* handlers map `code` to ContractError.
import type { MemoryErrorCode } from './types.js';

export class MemoryError extends Error {
  readonly code: MemoryErrorCode;
  /** Structured details, e.g. both contents of a conflict. Never host paths. */
  readonly details: unknown;
  constructor(code: MemoryErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'MemoryError';
    this.code = code;
    this.details = details;
  }
}

export function isMemoryError(err: unknown): err is MemoryError {
  return err instanceof MemoryError;
}

/**
 * Turn any error into a MemoryError with a safe message. File-system errors carry host paths in their
 * message, so only their code survives.
 */
export function toMemoryError(err: unknown, modelPath?: string): MemoryError {
  if (err instanceof MemoryError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const where = modelPath ? ` (${modelPath})` : '';
  switch (code) {
    case 'ENOENT':
      return new MemoryError('not_found', `The path${where} does not exist.`);
    case 'EEXIST':
    case 'ENOTEMPTY':
      return new MemoryError('exists', `Something already exists at that path${where}.`);
    case 'ELOOP':
      return new MemoryError('link', `A symbolic link is in the way${where}; links are not followed.`);
    case 'ENOTDIR':
      return new MemoryError('not_a_folder', `A parent of the path${where} is a file, not a folder.`);
    case 'EISDIR':
      return new MemoryError('not_a_file', `The path${where} is a folder, not a file.`);
    case 'ENOSPC':
      return new MemoryError('io', 'The disk is full; nothing was changed.');
    case 'EACCES':
    case 'EPERM':
      return new MemoryError('io', `Permission denied by the file system${where}.`);
    case 'ENAMETOOLONG':
      return new MemoryError('invalid_path', `The path${where} is too long for the file system.`);
    default:
      return new MemoryError(
        'io',
        `An unexpected file-system error occurred${where}${typeof code === 'string' ? ` (${code})` : ''}.`,
      );
  }
}
