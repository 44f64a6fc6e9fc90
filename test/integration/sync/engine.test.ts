// The sync engine between two real backends through the loopback git server: what one device changes
// reaches the other, merges per file, conflicts keep both versions, and nothing is lost.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getAgent } from '../../../electron/core/agent/index.js';
import { forgetEverywhere } from '../../../electron/core/forget.js';
import { startGitServer, type GitServer } from '../../fixtures/git-server/index.js';
import { device, removeAll, USER, type Device } from './support.js';

let server: GitServer;
const open: Device[] = [];
beforeAll(async () => {
  server = await startGitServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  for (const d of open.splice(0)) {
    await d.close();
    removeAll(d.dataDir);
  }
});

let repo = 0;
async function pair(): Promise<[Device, Device, string]> {
  const name = `engine-${++repo}`;
  const url = server.createRepo(name);
  const a = await device('laptop', url);
  const b = await device('desktop', url);
  open.push(a, b);
  return [a, b, name];
}

const read = async (d: Device, p: string) => (await d.core.ctx.memory.read(p)).content;

describe('sync engine', () => {
  it('a file made on A arrives on B, journaled as coming from A', async () => {
    const [a, b] = await pair();
    await a.core.ctx.memory.create('/memories/facts.md', '- likes tea\n', USER);
    const first = await a.sync.sync();
    expect(first.sent).toContain('/memories/facts.md');
    const got = await b.sync.sync();
    expect(got.received).toContainEqual({ path: '/memories/facts.md', change: 'added' });
    expect(await read(b, '/memories/facts.md')).toBe('- likes tea\n');
    const [entry] = await b.core.ctx.memory.history('/memories/facts.md');
    expect(entry).toMatchObject({ actor: 'sync', device: 'laptop', origin: 'user' });
    // Nothing moved since: both idle.
    expect((await a.sync.sync()).outcome).toBe('up-to-date');
    expect((await b.sync.sync()).outcome).toBe('up-to-date');
  });

  it('edits of different facts of one file on both devices are merged', async () => {
    const [a, b] = await pair();
    await a.core.ctx.memory.create('/memories/f.md', '- one\n- two\n- three\n- four\n', USER);
    await a.sync.sync();
    await b.sync.sync();
    const fa = await a.core.ctx.memory.read('/memories/f.md');
    await a.core.ctx.memory.write('/memories/f.md', '- ONE\n- two\n- three\n- four\n', fa.version, USER);
    const fb = await b.core.ctx.memory.read('/memories/f.md');
    await b.core.ctx.memory.write('/memories/f.md', '- one\n- two\n- three\n- FOUR\n', fb.version, USER);
    await a.sync.sync();
    const rb = await b.sync.sync();
    expect(rb.received).toContainEqual({ path: '/memories/f.md', change: 'merged' });
    await a.sync.sync();
    expect(await read(a, '/memories/f.md')).toBe('- ONE\n- two\n- three\n- FOUR\n');
    expect(await read(b, '/memories/f.md')).toBe('- ONE\n- two\n- three\n- FOUR\n');
  });

  it('the same fact edited on both: a conflict, the local file stays, the other version is kept aside', async () => {
    const [a, b] = await pair();
    await a.core.ctx.memory.create('/memories/f.md', '- city: Paris\n', USER);
    await a.sync.sync();
    await b.sync.sync();
    const fa = await a.core.ctx.memory.read('/memories/f.md');
    await a.core.ctx.memory.write('/memories/f.md', '- city: Lyon\n', fa.version, USER);
    const fb = await b.core.ctx.memory.read('/memories/f.md');
    await b.core.ctx.memory.write('/memories/f.md', '- city: Nice\n', fb.version, USER);
    await a.sync.sync();
    const rb = await b.sync.sync();
    expect(rb.conflicts).toEqual([{ path: '/memories/f.md', device: 'laptop' }]);
    expect(await read(b, '/memories/f.md')).toBe('- city: Nice\n');
    const [c] = b.sync.conflicts();
    expect(c).toMatchObject({ path: '/memories/f.md', device: 'laptop' });
    // The card: both versions and a draft; the model's folder holds no marker.
    const detail = await b.sync.conflict(c!.id);
    expect(detail).toMatchObject({ mine: '- city: Nice\n', theirs: '- city: Lyon\n' });
    expect(detail.draft).toContain('<<<<<<< this device');
    expect(await read(b, '/memories/f.md')).not.toContain('<<<<<<<');
    // While it is open, B holds both versions (A takes B's file, its own waits on B until resolved).
    await a.sync.sync();
    expect(await read(a, '/memories/f.md')).toBe('- city: Nice\n');
    expect(b.sync.conflicts()).toHaveLength(1);
    // Keep theirs: saved on B, and it travels back.
    await b.sync.resolve(c!.id, { keep: 'theirs' });
    expect(b.sync.conflicts()).toEqual([]);
    expect(await read(b, '/memories/f.md')).toBe('- city: Lyon\n');
    await b.sync.sync();
    await a.sync.sync();
    expect(await read(a, '/memories/f.md')).toBe('- city: Lyon\n');
  });

  it('a conversation changed on both devices is kept twice, never interleaved, and not copied again', async () => {
    const [a, b] = await pair();
    const storeA = getAgent(a.core.ctx).store;
    const storeB = getAgent(b.core.ctx).store;
    const c = await storeA.create({ title: 'Trip', memory: true });
    await a.sync.sync();
    await b.sync.sync();
    expect(storeB.list().map((x) => x.title)).toEqual(['Trip']);
    await storeA.rename(c.meta.id, 'Trip to Rome');
    await storeB.rename(c.meta.id, 'Trip to Oslo');
    await a.sync.sync();
    const rb = await b.sync.sync();
    expect(rb.notes.join('\n')).toContain('kept as a conversation of its own');
    await a.sync.sync();
    // Again on both: nothing new.
    expect((await b.sync.sync()).outcome).toBe('up-to-date');
    expect((await a.sync.sync()).outcome).toBe('up-to-date');
    const titles = (s: typeof storeA) =>
      s
        .list()
        .map((x) => x.title)
        .sort();
    expect(titles(storeB)).toEqual(['Trip to Oslo', 'Trip to Rome (from laptop)']);
    expect(titles(storeA)).toEqual(['Trip to Oslo', 'Trip to Rome (from laptop)']);
  });

  it('a deletion against an edit keeps the edit and says so', async () => {
    const [a, b] = await pair();
    await a.core.ctx.memory.create('/memories/keep.md', 'v1\n', USER);
    await a.sync.sync();
    await b.sync.sync();
    await a.core.ctx.memory.delete('/memories/keep.md', USER);
    await b.core.ctx.memory.write('/memories/keep.md', 'v2 from desktop\n', 'any', USER);
    await a.sync.sync();
    const rb = await b.sync.sync();
    expect(rb.notes.join('\n')).toContain('deleted on the other device but changed here: the change is kept');
    const ra = await a.sync.sync();
    expect(ra.received).toContainEqual({ path: '/memories/keep.md', change: 'added' });
    expect(await read(a, '/memories/keep.md')).toBe('v2 from desktop\n');
    expect(await read(b, '/memories/keep.md')).toBe('v2 from desktop\n');
  });

  it('a deletion on one side only travels', async () => {
    const [a, b] = await pair();
    await a.core.ctx.memory.create('/memories/old.md', 'old\n', USER);
    await a.sync.sync();
    await b.sync.sync();
    await b.core.ctx.memory.delete('/memories/old.md', USER);
    await b.sync.sync();
    const ra = await a.sync.sync();
    expect(ra.received).toContainEqual({ path: '/memories/old.md', change: 'deleted' });
    await expect(a.core.ctx.memory.read('/memories/old.md')).rejects.toThrow();
    // Journaled as coming from B, so it can be restored from History.
    const [del] = await a.core.ctx.memory.deleted();
    expect(del).toMatchObject({ actor: 'sync', device: 'desktop' });
  });

  it('"forget permanently" travels as a tombstone: the other device forgets the file and its history', async () => {
    const [a, b] = await pair();
    await a.core.ctx.memory.create('/memories/old-address.md', '- lived at 12 Elm Street\n', USER);
    await a.sync.sync();
    await b.sync.sync();
    expect(await read(b, '/memories/old-address.md')).toBe('- lived at 12 Elm Street\n');
    await forgetEverywhere(a.core.ctx, '/memories/old-address.md');
    await a.sync.sync();
    const rb = await b.sync.sync();
    expect(rb.forgotten).toEqual([{ path: '/memories/old-address.md', device: 'laptop' }]);
    await expect(b.core.ctx.memory.read('/memories/old-address.md')).rejects.toThrow();
    expect(await b.core.ctx.memory.history('/memories/old-address.md')).toEqual([]);
    expect(JSON.stringify(await b.core.ctx.memory.journal())).not.toContain('old-address');
    // Settled on both: no tombstone ping-pong, nothing comes back.
    expect((await a.sync.sync()).outcome).toBe('up-to-date');
    expect((await b.sync.sync()).outcome).toBe('up-to-date');
    await expect(a.core.ctx.memory.read('/memories/old-address.md')).rejects.toThrow();
  });

  it('a file another program wrote a credential into is not sent, and says why', async () => {
    const [a, b, repo] = await pair();
    await a.core.ctx.memory.create('/memories/notes.md', '- plain\n', USER);
    await a.sync.sync();
    await b.sync.sync();
    const token = 'ghp_' + 'aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2';
    writeFileSync(path.join(a.core.ctx.memory.root, 'notes.md'), `- plain\n- token: ${token}\n`);
    writeFileSync(path.join(a.core.ctx.memory.root, 'leak.md'), `${token}\n`);
    const ra = await a.sync.sync();
    expect(ra.held.map((h) => h.path).sort()).toEqual(['/memories/leak.md', '/memories/notes.md']);
    expect(ra.held[0]!.reason).toContain('GitHub');
    // Not anywhere on the remote, history included.
    expect(server.git(repo, ['log', '-p', '--all'])).not.toContain('ghp_');
    await b.sync.sync();
    expect(await read(b, '/memories/notes.md')).toBe('- plain\n');
    await expect(b.core.ctx.memory.read('/memories/leak.md')).rejects.toThrow();
    // Taken out: it syncs.
    writeFileSync(path.join(a.core.ctx.memory.root, 'notes.md'), '- plain\n- no token here\n');
    const again = await a.sync.sync();
    expect(again.held.map((h) => h.path)).toEqual(['/memories/leak.md']);
    await b.sync.sync();
    expect(await read(b, '/memories/notes.md')).toBe('- plain\n- no token here\n');
  });
});
