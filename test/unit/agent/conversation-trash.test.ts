// What a start deletes for good from the conversations' trash (trash.ts's emptyEndedTrash): only what no
// live process can still undo. A trashed file whose owner runs (on another machine, whose pids mean nothing
// here: that is young) stays, and the start says when to look again; one whose owner ended, that has no
// owner, or that is past any Undo goes, with its owner file; so do an owner file left alone and the temp
// file of a forget's rewrite whose process ended (it may hold the conversation's text).
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  TRASH_DIR,
  TRASH_KEEP_MS,
  UNDO_MARGIN_MS,
  emptyEndedTrash,
} from '../../../electron/core/conversations/trash.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mnemo-trash-'));
  await mkdir(path.join(dir, TRASH_DIR));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** The pid of a process that has ended. */
const ENDED = spawnSync(process.execPath, [
  '-e',
  'process.stdout.write(String(process.pid))',
]).stdout.toString();

async function trashed(id: string, owner?: { pid: number; host?: string; at?: number }): Promise<void> {
  await writeFile(path.join(dir, TRASH_DIR, `${id}.jsonl`), '{"t":"meta"}\n');
  if (owner)
    await writeFile(
      path.join(dir, TRASH_DIR, `${id}.owner`),
      JSON.stringify({ host: hostname(), at: Date.now(), ...owner }),
    );
}

const left = async (): Promise<string[]> =>
  (await readdir(path.join(dir, TRASH_DIR))).filter((n) => !n.endsWith('.lock')).sort();

describe('emptying the conversations trash at start', () => {
  it('keeps what a live process may still undo, and says when to look again', async () => {
    await trashed('mine', { pid: process.pid });
    // Elsewhere: its pid means nothing here, and its clock may be ahead of ours.
    await trashed('elsewhere', { pid: Number(ENDED), host: 'another-machine', at: Date.now() + 5_000 });
    const next = await emptyEndedTrash(dir);
    expect(await left()).toEqual(['elsewhere.jsonl', 'elsewhere.owner', 'mine.jsonl', 'mine.owner']);
    expect(next).toBeGreaterThan(0);
    expect(next).toBeLessThanOrEqual(TRASH_KEEP_MS + UNDO_MARGIN_MS);
  });

  it('deletes what an ended process trashed, what has no owner, and what is past any Undo', async () => {
    await trashed('killed', { pid: Number(ENDED) });
    await trashed('older-version');
    const long = Date.now() - TRASH_KEEP_MS - UNDO_MARGIN_MS - 1;
    await trashed('stuck', { pid: process.pid, at: long });
    await trashed('elsewhere', { pid: process.pid, host: 'another-machine', at: long });
    await writeFile(path.join(dir, TRASH_DIR, 'restored.owner'), JSON.stringify({ pid: process.pid }));
    await writeFile(path.join(dir, TRASH_DIR, `.killed.jsonl.redact-${ENDED}`), 'text');
    await writeFile(path.join(dir, TRASH_DIR, `.mine.jsonl.redact-${process.pid}`), 'text');
    expect(await emptyEndedTrash(dir)).toBeNull();
    expect(await left()).toEqual([`.mine.jsonl.redact-${process.pid}`]);
  });

  it("a live owner's file, looked at again once past any Undo, goes", async () => {
    await trashed('mine', { pid: process.pid });
    expect(await emptyEndedTrash(dir)).not.toBeNull();
    expect(await emptyEndedTrash(dir, Date.now() + TRASH_KEEP_MS + UNDO_MARGIN_MS)).toBeNull();
    expect(await left()).toEqual([]);
  });
});
