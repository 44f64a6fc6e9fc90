// Names that are one memory file to the memory but two entries to git: `café.md` composed (NFC) and
// decomposed (NFD). The memory names every file in NFC, so both are the same memory path; git on Linux
// keeps the bytes it is given, so a remote can hold both. A hostile or careless remote, built here with
// real git (a work clone pushing both names), against a device syncing through the CLI: whichever of the
// two this device refuses, the other must never be written over it, nor the push afterwards overwrite or
// delete either of them on the remote. The memory's rule picks the one that is the file (the NFC name,
// else the first), as memory/tree.ts does for such names on disk; a lone NFD name is that file.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type GitServer } from '../../fixtures/git-server/index.js';
import { type CliResult } from '../support/cli-process.js';
import { cliRig } from './cli-rig.js';

const NFC = 'caf\u00e9.md';
const NFD = 'cafe\u0301.md';
/** An Anthropic key as the memory's secret guard knows it: a file holding it is refused. */
const SECRET_TEXT = `key: sk-ant-api03-${'x7Q'.repeat(10)}\n`;

const rig = cliRig('sync-nfc');
let server: GitServer;
beforeAll(() => ({ server } = rig));
const { folder } = rig;

async function sync(dataDir: string, args: string[]): Promise<CliResult> {
  const r = await rig.runCli(dataDir, args);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r;
}

/** Another program's commit: a work clone of the bare repository writes `files` (bytes of the names as given). */
function hostileCommit(repo: string, files: Record<string, string>): void {
  const work = folder('work');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=other', '-c', 'user.email=other@example.com', ...args], {
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  git('clone', '--quiet', server.repoDir(repo), '.');
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(work, 'memories', name), text);
  git('add', '--all');
  git('commit', '--quiet', '-m', 'notes from elsewhere');
  git('push', '--quiet', 'origin', 'main');
}

/** The remote's memory entries: name (bytes as held) → blob id. */
function remoteMemories(repo: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of server.git(repo, ['ls-tree', '-r', '-z', 'main', 'memories/']).split('\0')) {
    const m = /^\d+ blob ([0-9a-f]{40})\tmemories\/(.+)$/.exec(line);
    if (m) out.set(m[2]!, m[1]!);
  }
  return out;
}

/** A device joined to a new repository that then gets `files` from another program. */
async function joinedThenHostile(repo: string, files: Record<string, string>): Promise<string> {
  const url = server.createRepo(repo);
  const dir = folder('d');
  await sync(dir, ['--sync-remote', url]);
  writeFileSync(path.join(dir, 'memories', 'mine.md'), 'mine\n');
  await sync(dir, ['--sync']);
  hostileCommit(repo, files);
  return dir;
}

describe('names that are one memory file in NFC', { timeout: 120_000 }, () => {
  it('the NFC entry refused: its NFD twin is not written in its place, and the remote keeps both', async () => {
    const dir = await joinedThenHostile('nfc-1', { [NFC]: SECRET_TEXT, [NFD]: 'harmless\n' });
    const before = remoteMemories('nfc-1');
    expect([...before.keys()].filter((n) => n.normalize('NFC') === NFC)).toHaveLength(2);
    const r = await sync(dir, ['--sync']);
    expect(r.stdout).toContain(`/memories/${NFC}: refused, `);
    expect(r.stdout).toMatch(
      /\/memories\/.+: refused, another name in its folder is the same once both are in Unicode NFC form/,
    );
    expect(r.stdout).not.toContain('received: /memories/caf');
    expect(existsSync(path.join(dir, 'memories', NFC))).toBe(false);
    // A change of this device's own goes out; the push leaves both names as the remote has them.
    writeFileSync(path.join(dir, 'memories', 'mine.md'), 'mine, edited\n');
    expect((await sync(dir, ['--sync'])).stdout).toContain('sent: /memories/mine.md');
    expect((await sync(dir, ['--sync'])).stdout).toContain('is up to date');
    const after = remoteMemories('nfc-1');
    expect(after.get(NFC)).toBe(before.get(NFC));
    expect(after.get(NFD)).toBe(before.get(NFD));
  });

  it('the NFC entry taken: the NFD twin is refused, and never written over it', async () => {
    const dir = await joinedThenHostile('nfc-2', { [NFC]: 'composed\n', [NFD]: 'decomposed\n' });
    const before = remoteMemories('nfc-2');
    const r = await sync(dir, ['--sync']);
    expect(r.stdout).toContain(`received: /memories/${NFC} (added)`);
    expect(r.stdout).toMatch(/\/memories\/.+: refused, another name in its folder is the same/);
    expect(readFileSync(path.join(dir, 'memories', NFC), 'utf8')).toBe('composed\n');
    writeFileSync(path.join(dir, 'memories', 'mine.md'), 'mine, edited\n');
    await sync(dir, ['--sync']);
    expect(readFileSync(path.join(dir, 'memories', NFC), 'utf8')).toBe('composed\n');
    const after = remoteMemories('nfc-2');
    expect(after.get(NFC)).toBe(before.get(NFC));
    expect(after.get(NFD)).toBe(before.get(NFD));
  });

  it('a lone NFD name is the memory file of its NFC name, both ways', async () => {
    const dir = await joinedThenHostile('nfc-3', { [NFD]: 'decomposed only\n' });
    const r = await sync(dir, ['--sync']);
    expect(r.stdout).toContain(`received: /memories/${NFC} (added)`);
    expect(readFileSync(path.join(dir, 'memories', NFC), 'utf8')).toBe('decomposed only\n');
    // Edited here: the edit goes to the remote as that file, which then holds the name once.
    writeFileSync(path.join(dir, 'memories', NFC), 'edited here\n');
    expect((await sync(dir, ['--sync'])).stdout).toContain(`sent: /memories/${NFC}`);
    const after = [...remoteMemories('nfc-3').entries()].filter(([n]) => n.normalize('NFC') === NFC);
    expect(after).toHaveLength(1);
    expect(server.git('nfc-3', ['cat-file', 'blob', after[0]![1]])).toBe('edited here\n');
  });
});
