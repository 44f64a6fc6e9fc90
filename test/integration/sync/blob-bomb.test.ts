// A remote blob bomb: a 1 GiB file of zeros under memories/ (a few MB on the wire) on a real git server,
// fetched by the real CLI in a process of its own. The whole process tree stays under 600 MiB: the pack is
// read as it arrives and the bomb never reaches isomorphic-git's inflater. The bomb is refused by name with
// the limit it broke, a 1 MiB file (inside the fetch's bounds, over the memory's) is refused from its
// object header, nothing of either is written, and the normal file next to them arrives.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../../fixtures/fake-anthropic/index.js';
import {
  DEFAULT_TOKEN,
  DEFAULT_USER,
  startGitServer,
  type GitServer,
} from '../../fixtures/git-server/index.js';
import { assertCliBuilt, CLI, cliEnv, collect, ROOT, type CliResult } from '../support/cli-process.js';
import { removeAll } from './support.js';

const MiB = 1024 * 1024;
const TREE_LIMIT = 600 * MiB;

let fake: FakeAnthropic;
let server: GitServer;
const dirs: string[] = [];

beforeAll(async () => {
  assertCliBuilt();
  fake = await startFakeAnthropic();
  server = await startGitServer();
});
afterAll(async () => {
  await fake?.close();
  await server?.close();
  removeAll(...dirs);
});

/** The resident memory of a process and all its descendants, from /proc (0 once they are gone). */
function treeRss(root: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  const todo = [root];
  while (todo.length > 0) {
    const pid = todo.pop()!;
    try {
      const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      total += Number(kb ?? 0) * 1024;
    } catch {
      // gone meanwhile
    }
    todo.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Runs the CLI and samples its process tree's memory while it runs; resolves with the peak. */
async function runMeasured(dataDir: string, args: string[]): Promise<CliResult & { peak: number }> {
  const child = spawn(process.execPath, [CLI, '--data-dir', dataDir, ...args], {
    cwd: ROOT,
    env: cliEnv(dataDir, fake.url, { MNEMO_SYNC_TOKEN: DEFAULT_TOKEN, MNEMO_SYNC_USER: DEFAULT_USER }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRss(child.pid!));
  }, 20);
  try {
    const result = await collect(child);
    return { ...result, peak };
  } finally {
    clearInterval(timer);
  }
}

/**
 * A commit on top of the remote's main, written into the bare repository with real git. A number is a
 * file of that many zeros: sparse on disk, so git reads it fast and streams it into a pack (above its
 * big-file threshold) instead of holding it, and the server sends that pack as it is.
 */
function plant(repo: string, files: Record<string, string | number | { oid: string }>): void {
  const cwd = server.repoDir(repo);
  const tmp = mkdtempSync(path.join(tmpdir(), 'mnemo-bomb-plant-'));
  dirs.push(tmp);
  const env = { ...process.env, GIT_INDEX_FILE: path.join(tmp, 'index') };
  const git = (args: string[]): string => execFileSync('git', args, { cwd, env, encoding: 'utf8' }).trim();
  git(['read-tree', 'main']);
  for (const [name, content] of Object.entries(files)) {
    if (typeof content === 'object') {
      git(['update-index', '--add', '--cacheinfo', `100644,${content.oid},${name}`]);
      continue;
    }
    const file = path.join(tmp, 'content');
    if (typeof content === 'number') {
      writeFileSync(file, '');
      truncateSync(file, content);
    } else writeFileSync(file, content);
    const oid = git(['hash-object', '-w', file]);
    rmSync(file);
    git(['update-index', '--add', '--cacheinfo', `100644,${oid},${name}`]);
  }
  const tree = git(['write-tree']);
  const commit = git(['commit-tree', tree, '-p', 'main', '-m', 'planted by another program']);
  git(['update-ref', 'refs/heads/main', commit]);
}

/**
 * A delta bomb, as a pack of two objects indexed by real git into the bare repository: a 64 KiB text
 * and a delta that copies it 1,600 times (one byte per copy), a 100 MiB file in a few hundred bytes on
 * the wire. The server sends the delta as it is stored. Returns both ids.
 */
function plantDeltaPack(repo: string): { base: string; target: string } {
  const base = Buffer.alloc(64 * 1024, 'a');
  const copies = 1600;
  const varint = (n: number): number[] => {
    const out: number[] = [];
    do {
      out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
      n = Math.floor(n / 128);
    } while (n > 0);
    return out;
  };
  // A copy with no offset or size bytes copies 0x10000 bytes from the start of the base.
  const delta = Buffer.from([
    ...varint(base.length),
    ...varint(base.length * copies),
    ...Array(copies).fill(0x80),
  ]);
  const baseEntry = Buffer.concat([Buffer.from([0xb0 | 0, 0x80, 0x20]), deflateSync(base)]); // blob, 65536
  const deltaHeader = [0xe0 | (delta.length & 0x0f)];
  for (let n = delta.length >> 4; n > 0; n >>= 7) {
    deltaHeader[deltaHeader.length - 1]! |= 0x80;
    deltaHeader.push(n & 0x7f);
  }
  const deltaEntry = Buffer.concat([Buffer.from([...deltaHeader, baseEntry.length]), deflateSync(delta)]);
  const body = Buffer.concat([Buffer.from('PACK\0\0\0\x02\0\0\0\x02', 'latin1'), baseEntry, deltaEntry]);
  const pack = Buffer.concat([body, createHash('sha1').update(body).digest()]);
  execFileSync('git', ['index-pack', '--stdin'], { cwd: server.repoDir(repo), input: pack });
  const target = createHash('sha1').update(`blob ${base.length * copies}\0`);
  for (let i = 0; i < copies; i++) target.update(base);
  return {
    base: createHash('sha1').update(`blob ${base.length}\0`).update(base).digest('hex'),
    target: target.digest('hex'),
  };
}

// A generous bound: in a full run, git's and the CLI's passes over the GiB share the cores with every
// other test file.
describe('a remote blob bomb', { timeout: 300_000 }, () => {
  it('is refused by name from the pack as it arrives; the tree stays under 600 MiB; the rest arrives', async () => {
    const repo = 'bomb';
    const url = server.createRepo(repo);
    // Level 1: git packs a GiB of zeros fast; the bomb is still a few MB on the wire.
    server.git(repo, ['config', 'core.compression', '1']);
    const a = mkdtempSync(path.join(tmpdir(), 'mnemo-bomb-a-'));
    dirs.push(a);
    const join = await runMeasured(a, ['--sync-remote', url]);
    expect(join.stderr).toBe('');
    expect(join.code).toBe(0);

    const { base, target } = plantDeltaPack(repo);
    plant(repo, {
      'memories/base.md': { oid: base },
      'memories/delta.md': { oid: target },
      'memories/bomb.md': 1024 * MiB,
      'memories/mid.md': 'x'.repeat(MiB),
      'memories/ok.md': '- a normal fact\n',
    });

    const r = await runMeasured(a, ['--sync']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('/memories/bomb.md: refused, it is larger than the 100 KiB limit');
    expect(r.stdout).toContain('/memories/mid.md: refused, it is larger than the 100 KiB limit');
    expect(r.stdout).toContain('/memories/delta.md: refused, it is larger than the 100 KiB limit');
    expect(r.stdout).toContain('received: /memories/ok.md (added)');
    expect(r.stdout).toContain('received: /memories/base.md (added)');
    expect(r.peak, `peak RSS of the CLI's process tree: ${Math.round(r.peak / MiB)} MiB`).toBeLessThan(
      TREE_LIMIT,
    );
    expect(readFileSync(path.join(a, 'memories', 'ok.md'), 'utf8')).toBe('- a normal fact\n');
    expect(existsSync(path.join(a, 'memories', 'bomb.md'))).toBe(false);
    expect(existsSync(path.join(a, 'memories', 'mid.md'))).toBe(false);
    expect(existsSync(path.join(a, 'memories', 'delta.md'))).toBe(false);

    // The next sync neither fails nor fetches the bomb again; the refused entries stay on the remote.
    const again = await runMeasured(a, ['--sync']);
    expect(again.code).toBe(0);
    expect(again.peak).toBeLessThan(TREE_LIMIT);
    const listed = server.git(repo, ['ls-tree', '-r', '--name-only', 'main']);
    expect(listed).toContain('memories/bomb.md');
    expect(listed).toContain('memories/mid.md');
  });

  it('a commit too large to set aside stops the sync with what to do; once it is gone, the sync goes on', async () => {
    const repo = 'big-commit';
    const url = server.createRepo(repo);
    const a = mkdtempSync(path.join(tmpdir(), 'mnemo-bomb-b-'));
    dirs.push(a);
    writeFileSync(path.join(mkdirFor(a), 'kept.md'), 'kept\n');
    expect((await runMeasured(a, ['--sync-remote', url])).code).toBe(0);
    const before = server.git(repo, ['rev-parse', 'main']).trim();
    // A commit message of 17 MiB: the history cannot be read without the commit, so nothing can be
    // set aside; the sync stops before isomorphic-git unpacks anything.
    const message = path.join(mkdtempSync(path.join(tmpdir(), 'mnemo-bomb-msg-')), 'message');
    dirs.push(path.dirname(message));
    writeFileSync(message, `${'a line of a very long message\n'.repeat((17 * MiB) / 30)}`);
    const tree = server.git(repo, ['rev-parse', 'main^{tree}']).trim();
    const big = server
      .git(repo, [
        '-c',
        'user.name=other',
        '-c',
        'user.email=o@x',
        'commit-tree',
        tree,
        '-p',
        'main',
        '-F',
        message,
      ])
      .trim();
    server.git(repo, ['update-ref', 'refs/heads/main', big]);

    const r = await runMeasured(a, ['--sync']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "Sync failed: The remote's history holds a commit of 17 MiB, larger than the 16384 KiB limit",
    );
    expect(r.stderr).toContain('Remove that commit from the remote.');
    expect(r.stderr).not.toMatch(/\n\s+at |\/tmp\/|node_modules/);
    expect(r.peak).toBeLessThan(TREE_LIMIT);
    expect(readFileSync(path.join(a, 'memories', 'kept.md'), 'utf8')).toBe('kept\n');

    server.git(repo, ['update-ref', 'refs/heads/main', before]);
    writeFileSync(path.join(a, 'memories', 'later.md'), 'later\n');
    const again = await runMeasured(a, ['--sync']);
    expect(again.stderr).toBe('');
    expect(again.stdout).toContain('sent: /memories/later.md');
  });
});

function mkdirFor(dataDir: string): string {
  const dir = path.join(dataDir, 'memories');
  mkdirSync(dir, { recursive: true });
  return dir;
}
