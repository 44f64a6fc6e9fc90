// Turning whatever a handler throws (or a failed schema parse) into the error data that crosses the
// contract: a code and a message a person can act on, never a stack or an absolute host path.
import type { z } from 'zod';
import { ContractError, errorCodes, type ContractErrorData } from '../../../shared/errors.js';
import { diskCondition, diskMessage } from '../disk-errors.js';
import type { RpcLogger as Logger } from './logger.js';
import { scrubHostPaths, stripStack } from './scrub.js';

const MAX_MESSAGE_CHARS = 2_000;
const MAX_ISSUES = 5;

export const INTERNAL_MESSAGE = 'Something went wrong inside Mnemo. The details are in the log file.';

function clean(message: string): string {
  const scrubbed = scrubHostPaths(stripStack(message)).trim();
  return scrubbed.length > MAX_MESSAGE_CHARS ? `${scrubbed.slice(0, MAX_MESSAGE_CHARS)}…` : scrubbed;
}

function issuePath(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.');
}

/** A readable `invalid_request` from zod issues: "text: Type a message first.; memory: Invalid input…". */
export function invalidRequest(channel: string, error: z.ZodError): ContractErrorData {
  const issues = error.issues.slice(0, MAX_ISSUES).map((issue) => ({
    path: issuePath(issue.path),
    message: clean(issue.message),
  }));
  const parts = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
  if (error.issues.length > MAX_ISSUES) parts.push(`and ${error.issues.length - MAX_ISSUES} more problems`);
  return {
    code: 'invalid_request',
    message: clean(parts.join('; ') || `The request for ${channel} is not valid.`),
    details: { channel, issues },
  };
}

/**
 * Maps a thrown value to contract error data. ContractErrors pass through (message cleaned); anything else
 * is a bug or an unexpected failure: logged in full, answered with a generic `internal` error.
 */
export function toErrorData(thrown: unknown, log: Logger, channel: string): ContractErrorData {
  if (thrown instanceof ContractError && (errorCodes as readonly string[]).includes(thrown.code)) {
    const data = thrown.toData();
    return { ...data, message: clean(data.message) };
  }
  const disk = diskMessage(thrown);
  if (disk) {
    log.warn('handler failed: disk', { channel, code: diskCondition(thrown) });
    return { code: 'unavailable', message: disk };
  }
  log.error('handler failed', {
    channel,
    error: thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown),
  });
  return { code: 'internal', message: INTERNAL_MESSAGE };
}
