// The sync engine between two real backends through the loopback git server: what one device changes
// reaches the other, merges per file, conflicts keep both versions, and nothing is lost.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
  });
});
