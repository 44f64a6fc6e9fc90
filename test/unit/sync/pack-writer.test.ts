// Our pack writer against git itself: a pack of many blobs that `git verify-pack` accepts and from which
// `git cat-file` and isomorphic-git read every blob back.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitStore } from '../../../electron/core/sync/git-store.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('pack writer', () => {
  it('writes a pack git verifies, and every blob reads back', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mnemo-pack-'));
    const store = new GitStore(path.join(dir, 'x.git'));
    await store.init();
    const contents = Array.from({ length: 300 }, (_, i) =>
      Buffer.from(`# note ${i}\n${'x'.repeat(i * 7)}\n`),
    );
    contents.push(Buffer.alloc(0), Buffer.from('é\u0000binary'));
    const oids = await Promise.all(contents.map((c) => store.writeBlob(c)));
    await store.writeTree([{ segs: ['a.md'], mode: '100644', oid: oids[0]! }]);
    const packDir = path.join(dir, 'x.git', 'objects', 'pack');
    const idx = readdirSync(packDir).find((n) => n.endsWith('.idx'))!;
    expect(idx).toBeDefined();
    execFileSync('git', ['verify-pack', path.join(packDir, idx)]);
    const fresh = new GitStore(path.join(dir, 'x.git'));
    for (let i = 0; i < contents.length; i += 37) {
      expect(await fresh.readBlob(oids[i]!)).toEqual(contents[i]);
      const out = execFileSync('git', ['--git-dir', path.join(dir, 'x.git'), 'cat-file', 'blob', oids[i]!]);
      expect(Buffer.from(out)).toEqual(contents[i]);
    }
  });
});
