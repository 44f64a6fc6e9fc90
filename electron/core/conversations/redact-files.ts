// Rewriting the files that hold a forgotten file's copies (conversations, logs): read, redact, and replace
// crash-safely (a temp file beside it, fsynced, renamed over it, the folder fsynced).
import {
  closeSync,
  constants,
  fsyncSync,
  openSync,
  promises as fs,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { type Redactor, walk } from './redact.js';
import type { ConversationRecord } from './records.js';

/**
 * Redacts a conversation file: true when it changed (and was replaced). Synchronous from read to rename,
 * so no append of this process lands in between; the caller makes sure no writer holds the old file open.
 */
export function redactConversationFile(file: string, redactor: Redactor): boolean {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  const out = redactConversationLines(raw, redactor);
  if (!out) return false;
  replaceLines(file, out);
  return true;
}

/** A conversation's bytes redacted (null: nothing changed), for a copy kept outside its file. */
export function redactConversationBytes(content: Buffer, redactor: Redactor): Buffer | null {
  const lines = redactConversationLines(content.toString('utf8'), redactor);
  return lines ? Buffer.from(lines.map((l) => `${l}\n`).join(''), 'utf8') : null;
}

/**
 * A conversation's JSON lines redacted (null: nothing changed), for a file or a copy kept elsewhere (sync's
 * git objects). A damaged line is redacted as text; a torn last line is dropped (loading drops it anyway).
 */
export function redactConversationLines(raw: string, redactor: Redactor): string[] | null {
  if (raw.endsWith('\n') && !redactor.mayTouchJson(raw)) return null;
  const lines = raw.split('\n');
  lines.pop(); // the part after the last newline: '' or a torn line
  const records: ConversationRecord[] = [];
  const at: (number | string)[] = [];
  let damaged = false;
  for (const line of lines) {
    if (line.trim() === '') continue;
    try {
      at.push(records.push(JSON.parse(line) as ConversationRecord) - 1);
    } catch {
      const redacted = redactor.text(line);
      if (redacted !== line) damaged = true;
      at.push(redacted);
    }
  }
  const changed = redactor.records(records);
  if (!changed && !damaged && at.length === lines.length && raw.endsWith('\n')) return null;
  // A new rev tells other processes (and this one's catch-up) that the file was replaced, even where the
  // new file gets the old inode number back (store.ts's catch-up; MetaRecord.rev). It is derived from what
  // it replaces, so two devices that redact the same conversation write the same bytes, and sync sees one
  // change instead of two that conflict.
  const first = records[0];
  if (first?.t === 'meta') {
    const { rev, ...meta } = first;
    const hash = createHash('sha256').update(rev ?? '');
    for (const [i, r] of records.entries()) hash.update(JSON.stringify(i === 0 ? meta : r));
    records[0] = { ...meta, rev: hash.digest('hex').slice(0, 32) };
  }
  return at.map((x) => (typeof x === 'number' ? JSON.stringify(records[x]) : x));
}

/** Redacts a log file (JSON lines; any other line as text). */
export function redactLogFile(file: string, redactor: Redactor): boolean {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  const lines = raw.split('\n');
  const tail = lines.pop() ?? '';
  let changed = false;
  const out = lines.map((line) => {
    let next: string;
    try {
      const value = JSON.parse(line) as unknown;
      next = walk(value, redactor.text) ? JSON.stringify(value) : line;
    } catch {
      next = redactor.text(line);
    }
    if (next !== line) changed = true;
    return next;
  });
  if (tail !== '') {
    out.push(redactor.text(tail));
    changed = true;
  }
  if (changed) replaceLines(file, out);
  return changed;
}

/**
 * Replaces a file's lines with `lines`, crash-safely: a temp file beside it, fsynced, renamed over it, and
 * the folder fsynced.
 */
export function replaceLines(file: string, lines: readonly string[]): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.redact-${process.pid}`);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o600);
  try {
    const data = Buffer.from(lines.map((l) => l + '\n').join(''), 'utf8');
    for (let done = 0; done < data.length;) done += writeSync(fd, data, done);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  fsyncFolder(path.dirname(file));
}

function fsyncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY);
    fsyncSync(fd);
  } catch {
    // Some platforms cannot fsync a folder; the rename is then as durable as the platform makes it.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export const isRedactLeftover = (name: string): boolean => name.startsWith('.') && name.includes('.redact-');

/**
 * Temp files of a redaction cut short (they may hold the content): removed at the next forget or start.
 * `names`: the folder's names as a start's listing read them just before (or found none to read: the
 * folder unchanged since a listing with no leftover); otherwise they are read now.
 */
export async function removeRedactLeftovers(dir: string, names?: readonly string[]): Promise<void> {
  for (const name of names ?? (await fs.readdir(dir).catch(() => [] as string[])))
    if (isRedactLeftover(name)) await fs.rm(path.join(dir, name), { force: true });
}
