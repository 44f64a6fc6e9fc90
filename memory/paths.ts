// Canonical memory paths. The model (and the user) name files as `/memories` or `/memories/<seg>/...`;
// anything else is refused before any file-system call, with a message that says how to fix it.
// The guards follow ../shared/docs/security.md: traversal, encodings, control characters, OS aliasing,
// lookalikes, depth and length.
import * as path from 'node:path';
import { hasLoneSurrogate } from './content.js';
import { MemoryError } from './errors.js';

export const ROOT = '/memories';
export const MAX_DEPTH = 10;
export const MAX_SEGMENT_BYTES = 120;
export const MAX_PATH_CHARS = 512;

/** Names Windows treats as devices, with or without an extension (CON.txt is CON). */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)(\..*)?$/i;
const RESERVED_CHARS = /[<>:"|?*\\]/;
// Invisible or direction-changing characters make two different names look identical.
const INVISIBLE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfff8],
];
function hasInvisible(s: string): boolean {
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (INVISIBLE_RANGES.some(([a, b]) => c >= a && c <= b)) return true;
  }
  return false;
}
/** C0 and C1 control characters (and DEL). */
export function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}
// Characters whose compatibility form is a path separator, a dot or a reserved character.
const LOOKALIKE_TARGET = /[/\\.<>:"|?*%]/;

export interface ParsedPath {
  /** The canonical model path, e.g. `/memories/notes/a.md` (NFC). */
  path: string;
  /** Segments below the root; empty for the root itself. */
  segments: string[];
}

function refuse(message: string): never {
  throw new MemoryError('invalid_path', message);
}

function show(raw: string): string {
  // Echo only a printable, bounded form of what we refuse.
  const printable = Array.from(raw, (ch) => (hasControl(ch) ? '?' : ch)).join('');
  return printable.length > 80 ? `${printable.slice(0, 77)}...` : printable;
}

function checkSegment(seg: string, raw: string): void {
  if (seg === '')
    refuse(
      `Invalid path "${show(raw)}": empty segment ("//" or a trailing "/"). Use /memories/folder/file.md.`,
    );
  if (seg === '.' || seg === '..')
    refuse(`Invalid path "${show(raw)}": "." and ".." segments are not allowed.`);
  if (seg.startsWith('.'))
    refuse(
      `Invalid path "${show(raw)}": names starting with "." are reserved (hidden). Choose a name without a leading dot.`,
    );
  if (hasControl(seg)) refuse(`Invalid path "${show(raw)}": control characters are not allowed.`);
  if (seg.includes('%'))
    refuse(`Invalid path "${show(raw)}": "%" is not allowed (percent-encoding could hide another path).`);
  if (RESERVED_CHARS.test(seg))
    refuse(
      `Invalid path "${show(raw)}": the characters < > : " | ? * and backslash are not allowed in names.`,
    );
  if (/[ .]$/.test(seg) || /^\s/.test(seg))
    refuse(`Invalid path "${show(raw)}": names may not start with a space or end with a space or a dot.`);
  if (WINDOWS_DEVICE.test(seg))
    refuse(`Invalid path "${show(raw)}": "${seg}" is a reserved device name on Windows.`);
  if (hasInvisible(seg))
    refuse(`Invalid path "${show(raw)}": invisible or direction-changing characters are not allowed.`);
  if (/[^\x20-\x7e]/.test(seg)) {
    // Non-ASCII is fine for real words, but not when its compatibility form is a separator or a dot.
    const compat = seg.normalize('NFKC');
    for (const ch of seg) {
      if (/[^\x20-\x7e]/.test(ch) && LOOKALIKE_TARGET.test(ch.normalize('NFKC')))
        refuse(
          `Invalid path "${show(raw)}": "${ch}" looks like a path character; use plain ASCII for separators and dots.`,
        );
    }
    if (compat === '.' || compat === '..')
      refuse(`Invalid path "${show(raw)}": a name that looks like "." or "..".`);
    if (
      /[\u2024\u2025\u2026\u2044\u2215\u29f8\u29f9\uff0e\uff0f\uff3c\u3002\ufe52\u2216\u02d0\uff1a]/u.test(
        seg,
      )
    )
      refuse(`Invalid path "${show(raw)}": a character in it looks like a path separator or a dot.`);
  }
  if (Buffer.byteLength(seg, 'utf8') > MAX_SEGMENT_BYTES)
    refuse(`Invalid path "${show(raw)}": a name is longer than ${MAX_SEGMENT_BYTES} bytes.`);
}

/**
 * Paths already accepted, by their input: a change parses its paths more than once (the tool, then the
 * operation), and the model names the same files again and again. Only accepted paths are kept, and each
 * caller gets its own copy of the segments.
 */
const accepted = new Map<string, ParsedPath>();
const ACCEPTED_MAX = 1000;

/** Parse and validate a model path; throws MemoryError('invalid_path') with an actionable message. */
export function parseMemoryPath(input: unknown): ParsedPath {
  const known = typeof input === 'string' ? accepted.get(input) : undefined;
  if (known) return { path: known.path, segments: [...known.segments] };
  const p = parseUncached(input);
  if (accepted.size >= ACCEPTED_MAX) accepted.clear();
  accepted.set(input as string, p);
  return { path: p.path, segments: [...p.segments] };
}

/**
 * Paths every check below accepts as they are: one to MAX_DEPTH names of ASCII letters, digits, "_" and
 * "-", dots only between them. Such a path needs no normalising and can hold none of the characters the
 * checks look for; what is left to check is each name's length and the Windows device names. The full
 * checks cost ~5-20 µs per new path (a rename's destination is always new), this one under 1 µs
 * (test/unit/memory/properties.test.ts holds the two to the same answers).
 */
const PLAIN_PATH = new RegExp(`^${ROOT}(?:/[A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_-]+)*){1,${MAX_DEPTH}}$`);

/** The parse of a plain path (PLAIN_PATH), or undefined to take the full checks. */
export function parsePlain(raw: string): ParsedPath | undefined {
  if (raw.length > MAX_PATH_CHARS || !PLAIN_PATH.test(raw)) return undefined;
  const segments = raw.slice(ROOT.length + 1).split('/');
  for (const seg of segments)
    if (seg.length > MAX_SEGMENT_BYTES || WINDOWS_DEVICE.test(seg)) return undefined;
  return { path: raw, segments };
}

function parseUncached(input: unknown): ParsedPath {
  return (typeof input === 'string' ? parsePlain(input) : undefined) ?? parseFully(input);
}

/** Every check, whatever the path. */
export function parseFully(input: unknown): ParsedPath {
  if (typeof input !== 'string') refuse('The path must be a string like /memories/notes.md.');
  const raw = input;
  if (raw.length === 0) refuse('The path is empty. Use /memories or /memories/<file>.');
  if (raw.length > MAX_PATH_CHARS) refuse(`The path is longer than ${MAX_PATH_CHARS} characters.`);
  if (hasLoneSurrogate(raw)) refuse('The path contains broken Unicode (a lone surrogate).');
  if (raw.includes('\u0000')) refuse(`Invalid path "${show(raw)}": NUL characters are not allowed.`);
  if (raw.includes('\\')) refuse(`Invalid path "${show(raw)}": use "/" as the separator, not a backslash.`);
  const nfc = raw.normalize('NFC');
  if (nfc === ROOT) return { path: ROOT, segments: [] };
  if (!nfc.startsWith(ROOT + '/')) {
    if (nfc.startsWith(ROOT))
      refuse(`Invalid path "${show(raw)}": paths must be /memories or start with /memories/.`);
    if (/^[a-zA-Z]:/.test(nfc) || nfc.startsWith('~'))
      refuse(`Invalid path "${show(raw)}": host paths are not allowed; use a path under /memories.`);
    refuse(
      `Invalid path "${show(raw)}": every path must start with /memories/ (for example /memories/notes.md).`,
    );
  }
  const segments = nfc.slice(ROOT.length + 1).split('/');
  if (segments.length > MAX_DEPTH) refuse(`Invalid path "${show(raw)}": deeper than ${MAX_DEPTH} levels.`);
  for (const seg of segments) checkSegment(seg, raw);
  return { path: `${ROOT}/${segments.join('/')}`, segments };
}

/** Non-throwing form for previews (import): the refusal message, or the canonical path. */
export function checkMemoryPath(input: unknown): { ok: true; path: string } | { ok: false; message: string } {
  try {
    return { ok: true, path: parseMemoryPath(input).path };
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The key two names collide under on case-insensitive, normalising file systems (macOS, Windows). */
export function foldName(seg: string): string {
  // Printable ASCII is its own NFKC and NFC form, and lower-cases to ASCII: most names skip both.
  if (PRINTABLE_ASCII.test(seg)) return seg.toLowerCase();
  return seg.normalize('NFKC').toLowerCase().normalize('NFC');
}

export function toHost(root: string, segments: readonly string[]): string {
  return segments.length === 0 ? root : path.join(root, ...segments);
}

/** The segments of a canonical memory path (one this module accepted, or the journal recorded). */
export const segmentsOf = (p: string): string[] => (p === ROOT ? [] : p.slice(ROOT.length + 1).split('/'));

/** A canonical memory path (from the journal) as a ParsedPath, without checking it again. */
export const parsedOf = (p: string): ParsedPath => ({ path: p, segments: segmentsOf(p) });

export function joinModel(segments: readonly string[]): string {
  return segments.length === 0 ? ROOT : `${ROOT}/${segments.join('/')}`;
}

export function parentOf(modelPath: string): string {
  const i = modelPath.lastIndexOf('/');
  return i <= 0 ? ROOT : modelPath.slice(0, i) || ROOT;
}

/** True when `inner` is `outer` or below it. */
export function isWithin(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(outer + '/');
}
