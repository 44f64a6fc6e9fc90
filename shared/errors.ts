// Errors that cross the contract. They carry a code the UI can branch on and a message a person can act
// on; never a stack trace or an absolute host path (transports strip anything else).
import { z } from 'zod';

export const errorCodes = [
  'invalid_request', // the payload failed its schema
  'forbidden', // the sender is not allowed
  'unknown_channel',
  'not_found',
  'conflict', // e.g. a memory file changed since the editor opened it
  'no_api_key',
  'unavailable', // the backend cannot do this right now (e.g. a run is already in progress)
  'internal',
] as const;

export const contractErrorSchema = z.object({
  code: z.enum(errorCodes),
  message: z.string(),
  /** Optional structured details (e.g. both versions of a conflicting file). Never host paths. */
  details: z.unknown().optional(),
});
export type ContractErrorData = z.infer<typeof contractErrorSchema>;

export class ContractError extends Error {
  readonly code: ContractErrorData['code'];
  readonly details: unknown;
  constructor(code: ContractErrorData['code'], message: string, details?: unknown) {
    super(message);
    this.name = 'ContractError';
    this.code = code;
    this.details = details;
  }
  toData(): ContractErrorData {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}
