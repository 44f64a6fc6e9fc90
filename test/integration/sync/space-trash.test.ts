// A synced space's files outside its folder (DIR/sync/<id>.git, its remote and token, state, lock,
// conflicts, tombstones, backups), as a user meets them through the CLI against the loopback git server.
// While the space is in the trash they stay, so Undo brings the space back syncing as before; when the
// trash erases the space (a delete looks at trash older than the keep window), they go with it, and the
// other spaces' stay. Files an older version left behind for a space erased already are swept then too.
// The terminal has no Undo: the test restores through the backend (createCore), as the window's Undo
// (spaces.restore) does. The deletion time is what the trash entry's name records, so the test ages an
// entry by renaming it, as if the keep window had passed.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core/create-core.js';
import { TRASH_KEEP_MS } from '../../../electron/core/spaces/index.js';
import { type FakeAnthropic, text } from '../../fixtures/fake-anthropic/index.js';
import { type GitServer } from '../../fixtures/git-server/index.js';
import { testHost } from '../agent/harness.js';
import { type CliResult } from '../support/cli-process.js';
import { cliRig } from './cli-rig.js';

const rig = cliRig('sync-trash');
let fake: FakeAnthropic;
let server: GitServer;
beforeAll(() => ({ fake, server } = rig));
const { folder } = rig;

async function cli(dataDir: string, args: string[], device = 'laptop'): Promise<CliResult> {
  const r = await rig.runCli(dataDir, args, { MNEMO_SYNC_DEVICE: device });
  return r;
}

async function ok(dataDir: string, args: string[], device?: string): Promise<CliResult> {
  const r = await cli(dataDir, args, device);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r;
}

/** The ids of the spaces listed in the data folder (Personal's files are the folder's own). */
const spaceIds = (dataDir: string): string[] =>
  readdirSync(path.join(dataDir, 'spaces')).filter((n) => /^[0-9a-f]{12}$/.test(n));

/** What DIR/sync holds for one space. */
const syncFiles = (dataDir: string, id: string): string[] =>
  readdirSync(path.join(dataDir, 'sync'))
    .filter((n) => n.startsWith(`${id}.`))
    .sort();

const trashDir = (dataDir: string): string => path.join(dataDir, 'spaces', '.trash');

/** Moves a trash entry's deletion time back past the keep window. */
function age(dataDir: string, id: string): void {
  const entry = readdirSync(trashDir(dataDir)).find((n) => n.endsWith(`-${id}`))!;
  const deletedAt = Number(entry.split('-')[0]);
  renameSync(
    path.join(trashDir(dataDir), entry),
    path.join(trashDir(dataDir), `${deletedAt - TRASH_KEEP_MS - 60_000}-${id}`),
  );
}

/** A chat in a new space: the way the terminal creates one. */
async function newSpace(dataDir: string, name: string): Promise<void> {
  fake.reset();
  fake.enqueue(text('Hello.'));
  await ok(dataDir, ['--space', name, 'hello']);
}

const memoryOf = (dataDir: string, id: string, file: string): string =>
  path.join(dataDir, 'spaces', id, 'memories', file);

describe("a deleted space's sync files", { timeout: 180_000 }, () => {
  it('stay through Undo (which syncs again), and go when the trash erases the space', async () => {
    const url = server.createRepo('trash-1');
    const personalUrl = server.createRepo('trash-1-personal');
    const a = folder('a');
    const b = folder('b');
    await ok(a, ['--sync-remote', url, '--space', 'Work'], 'laptop');
    const [aWork] = spaceIds(a);
    writeFileSync(memoryOf(a, aWork!, 'plan.md'), 'one\n');
    await ok(a, ['--sync', '--space', 'Work'], 'laptop');
    // B joins with a Work of its own, and Personal syncs too (its files must outlive Work's).
    await ok(b, ['--sync-remote', url, '--space', 'Work'], 'desktop');
    await ok(b, ['--sync-remote', personalUrl], 'desktop');
    const [work] = spaceIds(b);
    // The same line changed on both devices: B keeps a conflict record.
    writeFileSync(memoryOf(a, aWork!, 'plan.md'), 'from the laptop\n');
    await ok(a, ['--sync', '--space', 'Work'], 'laptop');
    writeFileSync(memoryOf(b, work!, 'plan.md'), 'from the desktop\n');
    expect((await ok(b, ['--sync', '--space', 'Work'], 'desktop')).stdout).toContain(
      'conflict: /memories/plan.md',
    );
    const before = syncFiles(b, work!);
    for (const f of ['.git', '.remote.json', '.token', '.state.json', '.conflicts', '.conflicts.json'])
      expect(before).toContain(`${work}${f}`);
    const personal = syncFiles(b, 'personal');
    expect(personal).toContain('personal.token');

    // Deleted: in the trash, and its sync files kept for Undo.
    await ok(b, ['--delete-space', 'Work', '--yes']);
    expect(spaceIds(b)).toEqual([]);
    expect(syncFiles(b, work!)).toEqual(before);

    // Undo, as the window does it; the next sync in the terminal works as before, both ways.
    const core = await createCore({ dataDir: b, host: testHost, env: {}, openPersonal: false });
    try {
      await core.spaces.restore(work!);
    } finally {
      await core.close();
    }
    writeFileSync(memoryOf(b, work!, 'after-undo.md'), 'back\n');
    expect((await ok(b, ['--sync', '--space', 'Work'], 'desktop')).stdout).toContain(
      'sent: /memories/after-undo.md',
    );
    expect((await ok(a, ['--sync', '--space', 'Work'], 'laptop')).stdout).toContain(
      'received: /memories/after-undo.md (added)',
    );

    // Deleted again, and kept past the trash's window: the next delete erases it, and its sync files.
    await ok(b, ['--delete-space', 'Work', '--yes']);
    age(b, work!);
    await newSpace(b, 'Other');
    await ok(b, ['--delete-space', 'Other', '--yes']);
    expect(readdirSync(trashDir(b)).filter((n) => n.endsWith(`-${work}`))).toEqual([]);
    expect(syncFiles(b, work!)).toEqual([]);
    expect(syncFiles(b, 'personal')).toEqual(personal);
    // The remote keeps what it holds: erasing is this device's business only.
    expect(server.git('trash-1', ['ls-tree', '-r', '--name-only', 'main'])).toContain(
      'memories/after-undo.md',
    );
  });

  it('files an older version left behind for a space erased already go at the next emptying', async () => {
    const url = server.createRepo('trash-2');
    const c = folder('c');
    await ok(c, ['--sync-remote', url, '--space', 'Gone']);
    const [gone] = spaceIds(c);
    await ok(c, ['--delete-space', 'Gone', '--yes']);
    // What an older version's emptying did: the space's folder erased, its sync files left.
    rmSync(trashDir(c), { recursive: true, force: true });
    mkdirSync(trashDir(c));
    expect(syncFiles(c, gone!)).toContain(`${gone}.git`);
    // A space in the trash now, not yet past its window: its files are kept.
    const kept = server.createRepo('trash-3');
    await ok(c, ['--sync-remote', kept, '--space', 'Kept']);
    const keptId = spaceIds(c).find((id) => id !== gone)!;
    await ok(c, ['--delete-space', 'Kept', '--yes']);
    expect(syncFiles(c, gone!)).toEqual([]);
    expect(syncFiles(c, keptId)).toContain(`${keptId}.token`);
    expect(existsSync(path.join(c, 'sync'))).toBe(true);
  });
});
