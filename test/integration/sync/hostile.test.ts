// A hostile remote: a commit (written straight into the server's bare repository, as another program
// could push it) holds entries no device of ours would make. Each is refused and reported entry by entry,
// nothing is written outside the space, the good entry next to them arrives, and this device's push
// leaves every refused entry on the remote exactly as it was.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitStore, type TreeEntry } from '../../../electron/core/sync/git-store.js';
import { startGitServer, type GitServer } from '../../fixtures/git-server/index.js';
import { device, removeAll, USER, type Device } from './support.js';

let server: GitServer;
beforeAll(async () => {
  server = await startGitServer();
});
afterAll(async () => {
  await server.close();
});

const big = 'x'.repeat(200 * 1024);
const key = 'sk-ant-api03-' + 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z'.repeat(2);

// [segments, mode, content, what the report says]
const table: [string[], string, string, RegExp][] = [
  [['memories', '..', 'escape.md'], '100644', 'escaped\n', /\/memories\/\.\.\/escape\.md: /],
  [['memories', '.git', 'config'], '100644', '[core]\n', /\/memories\/\.git\/config: /],
  [['memories', '/etc', 'passwd'], '100644', 'root\n', /not a plain relative path/],
  [['memories', 'a\\b.md'], '100644', 'backslash\n', /not a plain relative path/],
  [['memories', 'link.md'], '120000', '/etc/passwd', /symbolic link/],
  [['memories', 'big.md'], '100644', big, /larger than/],
  [['memories', 'CON'], '100644', 'device name\n', /\/memories\/CON: /],
  [['memories', '50%.md'], '100644', 'percent\n', /\/memories\/50%\.md: /],
  [['memories', 'keys.md'], '100644', `my key: ${key}\n`, /Anthropic/],
  [['memories', 'bin.md'], '100644', '\u0000\u00ff', /(UTF-8|NUL|text)/i],
  [['conversations', 'not-a-conversation.jsonl'], '100644', 'garbage\n', /not a conversation/],
  [['conversations', 'x.txt'], '100644', 'x\n', /not a conversation file name/],
  [['..', 'outside.md'], '100644', 'outside\n', /not part of a space/],
  [['.git', 'hooks', 'post-merge'], '100755', '#!/bin/sh\necho pwned\n', /not part of a space/],
];

async function hostileCommit(repo: string, base: string | null): Promise<string> {
  const store = new GitStore(server.repoDir(repo));
  const entries: TreeEntry[] = [];
  if (base) entries.push(...(await store.readTree((await store.readCommit(base)).tree)));
  for (const [segs, mode, content] of table) {
    entries.push({ segs, mode, oid: await store.writeBlob(Buffer.from(content, 'latin1')) });
  }
  entries.push({
    segs: ['memories', 'good.md'],
    mode: '100644',
    oid: await store.writeBlob(Buffer.from('- good fact\n')),
  });
  const tree = await store.writeTree(entries);
  const oid = await store.commit({
    tree,
    parents: base ? [base] : [],
    message:
      'hostile\n\nMnemo-Device: evil\nMnemo-Change: {"p":"memories/good.md","actor":"agent","conversation":"../../x"}\n',
    device: 'evil',
    at: Date.now(),
  });
  await store.setRef('refs/heads/main', oid);
  return oid;
}

describe('a hostile remote', () => {
  let a: Device | undefined;
  afterAll(async () => {
    await a?.close();
    if (a) removeAll(a.dataDir);
  });

  it('refuses each bad entry with its reason, writes nothing outside the space, keeps them on the remote', async () => {
    const repo = 'hostile';
    const url = server.createRepo(repo);
    a = await device('mine', url);
    await a.core.ctx.memory.create('/memories/own.md', 'own\n', USER);
    await a.sync.sync();
    const head = server.git(repo, ['rev-parse', 'main']).trim();
    await hostileCommit(repo, head);
    const before = server.git(repo, ['ls-tree', '-r', 'main']);

    const report = await a.sync.sync();
    const lines = report.refused.map((r) => `${r.path}: ${r.reason}`);
    for (const [segs, , , reason] of table) {
      expect(
        lines.some((l) => reason.test(l)),
        `${segs.join('/')} in ${lines.join('\n')}`,
      ).toBe(true);
    }
    expect(report.refused.length).toBe(table.length);
    expect(report.received).toEqual([{ path: '/memories/good.md', change: 'added' }]);
    expect((await a.core.ctx.memory.read('/memories/good.md')).content).toBe('- good fact\n');
    // A provenance that is not an id is dropped, never trusted.
    const [entry] = await a.core.ctx.memory.history('/memories/good.md');
    expect(entry).toMatchObject({ actor: 'sync', device: 'evil', origin: 'agent' });
    expect(entry?.conversationId).toBeUndefined();

    // Nothing written anywhere but the good file.
    const parent = path.dirname(a.dataDir);
    for (const name of ['escape.md', 'outside.md', 'passwd'])
      expect(existsSync(path.join(parent, name))).toBe(false);
    expect(readdirSync(a.core.ctx.memory.root).sort()).toEqual(['good.md', 'own.md']);
    const conversations = path.join(a.dataDir, 'conversations');
    expect(existsSync(conversations) ? readdirSync(conversations) : []).toEqual([]);
    expect(existsSync(path.join(a.dataDir, '.git'))).toBe(false);

    // This device's next change goes out; every refused entry stays on the remote as it was.
    await a.core.ctx.memory.write('/memories/own.md', 'own, edited\n', 'any', USER);
    const again = await a.sync.sync();
    expect(again.sent).toEqual(['/memories/own.md']);
    expect(again.refused).toEqual([]);
    const after = server.git(repo, ['ls-tree', '-r', 'main']);
    const withoutOwn = (s: string) =>
      s
        .split('\n')
        .filter((l) => !l.endsWith('memories/own.md'))
        .join('\n');
    expect(withoutOwn(after)).toBe(withoutOwn(before));
    expect(readFileSync(path.join(a.core.ctx.memory.root, 'own.md'), 'utf8')).toBe('own, edited\n');
  });
});
