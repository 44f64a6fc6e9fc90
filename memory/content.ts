// Checks on what goes into a file: text only, within the per-file cap, no credentials; and its version.
import { createHash } from 'node:crypto';
import { MemoryError } from './errors.js';
import { detectAddedSecret, detectSecret } from './secrets.js';
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
  checkText(path, content, limits);
  checkName(path);
  checkSecrets(path, '', content);
}

/**
 * Names found clean: the same names come back (every folder on the way, the names the model gives again).
 * No detector matches across a line break, so scanning a path one name at a time finds what scanning the
 * names one per line did.
 */
const cleanNames = new Set<string>();
const CLEAN_NAMES_MAX = 2000;

/**
 * Throws MemoryError('secret') when a new file's name looks like a credential: names are listed to the
 * model and exported like content. The message cannot quote the path, since the path is the secret.
 */
export function checkName(path: string): void {
  for (const name of path.split('/')) {
    if (name === '' || cleanNames.has(name)) continue;
    const secret = detectSecret(name);
    if (secret)
      throw new MemoryError(
        'secret',
        `Refused: the name of the new file looks like ${secret.detector}. Names are shown to the model and ` +
          'exported like content: choose a name without the credential. Nothing was saved.',
      );
    if (cleanNames.size >= CLEAN_NAMES_MAX) cleanNames.clear();
    cleanNames.add(name);
  }
}

/** Throws MemoryError (encoding | too_large) unless `content` is text within the per-file cap. */
export function checkText(path: string, content: string, limits: Pick<MemoryLimits, 'fileCapBytes'>): void {
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
}

/**
 * Throws MemoryError('secret') when a line that the change from `before` to `after` adds or alters looks
 * like a credential (secrets.ts says why only those lines). Every write path calls this with the text it
 * is about to store, after the edit is applied and before anything is written.
 */
export function checkSecrets(path: string, before: string, after: string): void {
  const secret = detectAddedSecret(before, after);
  if (secret)
    throw new MemoryError(
      'secret',
      `Refused: the text for ${path} looks like ${secret.detector} (line ${secret.line}). Nothing was saved. ` +
        'Credentials must not be stored in memory: leave the value out and note where it is kept instead ' +
        '(for example "the deploy token is in the team password manager").',
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
