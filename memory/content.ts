// Checks on what goes into a file: text only, within the per-file cap, no credentials; and its version.
import { createHash } from 'node:crypto';
import { MemoryError } from './errors.js';
import { detectSecret } from './secrets.js';
import type { MemoryLimits } from './types.js';

/** A content's version: the sha256 of its bytes, in hex (what a user edit names as its base). */
export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** True if the string cannot be encoded as UTF-8 without loss (a lone UTF-16 surrogate). */
export function hasLoneSurrogate(s: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}

const fatalDecoder = new TextDecoder('utf-8', { fatal: true });

/** Throws MemoryError (encoding | too_large | secret) when `content` may not be stored at `path`. */
export function checkContent(
  path: string,
  content: string,
  limits: Pick<MemoryLimits, 'fileCapBytes'>,
): void {
  if (typeof content !== 'string') throw new MemoryError('invalid_input', 'The content must be text.');
  if (hasLoneSurrogate(content))
    throw new MemoryError(
      'encoding',
      `Refused: the text for ${path} contains broken Unicode (a lone surrogate).`,
    );
  if (content.includes('\u0000'))
    throw new MemoryError(
      'encoding',
      `Refused: the text for ${path} contains NUL characters; memory files are text.`,
    );
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > limits.fileCapBytes)
    throw new MemoryError(
      'too_large',
      `Refused: ${path} would be ${bytes} bytes, above the ${limits.fileCapBytes}-byte limit per file. ` +
        'Split it into smaller files or remove what is no longer needed.',
    );
  const secret = detectSecret(content);
  if (secret)
    throw new MemoryError(
      'secret',
      `Refused: the text for ${path} looks like ${secret.detector} (line ${secret.line}). ` +
        'Credentials must not be stored in memory; describe where the secret is kept instead.',
    );
}

/** Decode bytes read from disk; refuses anything that is not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array, path: string): string {
  try {
    return fatalDecoder.decode(bytes);
  } catch {
    throw new MemoryError('encoding', `${path} is not valid UTF-8 text (it may be a binary file).`);
  }
}
