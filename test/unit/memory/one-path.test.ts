// Every operation takes the kernel's one transaction path: revert removes through the trash like delete,
// revert and restore prune the journal like every other change, an edit made with another program is
// recorded through it too (pruned, queued behind the changes in flight), and limits change through a method.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemory } from '../../../memory/index.js';
import { agent, sandbox, type Sandbox } from './helpers.js';

let s: Sandbox | undefined;
afterEach(async () => {
  await s?.cleanup();
  s = undefined;
});
const journalBytes = async (sb: Sandbox) =>
  (await readFile(path.join(sb.dataDir, 'memory-journal', 'journal.jsonl'))).length;

describe('one transaction path', () => {
  it('a revert that removes a file takes it out through the trash, as delete does', async () => {
    s = await sandbox();
    const { journalId } = await s.memory.create('/memories/a.md', 'made by mistake\n');
    await s.memory.revert(journalId);
    expect(await readdir(path.join(s.dataDir, 'memories'))).toEqual([]);
    expect(await readdir(path.join(s.dataDir, 'memory-journal', 'trash'))).toHaveLength(1);
    await s.memory.close();
    expect(await readdir(path.join(s.dataDir, 'memory-journal', 'trash'))).toEqual([]);
  });

  it('a revert alone keeps the journal under its cap', async () => {
    s = await sandbox();
    const line = (c: string) => c.repeat(1000) + '\n' + 'filler\n'.repeat(8);
    const edits: string[] = [];
    for (let i = 0; i < 3; i++) {
      const p = `/memories/f${i}.md`;
      await s.memory.write(p, line('a') + line('b') + line(String(i)), 'any');
      edits.push((await s.memory.write(p, line('a') + line('B') + line(String(i)), 'any')).journalId);
      await s.memory.write(p, line('A') + line('B') + line(String(i)), 'any');
    }
    // Reopened with a cap just above the journal's size: three reverts take it past the cap.
    const cap = (await journalBytes(s)) + 4000;
    await s.memory.close();
    s.memory = await createMemory({ dataDir: s.dataDir, watch: false, limits: { journalCapBytes: cap } });
    // Each revert takes back the middle line only: a merged text the journal has never held.
    for (const id of edits) await s.memory.revert(id);
    expect((await s.memory.read('/memories/f2.md')).content).toBe(line('A') + line('b') + line('2'));
    expect(await journalBytes(s)).toBeLessThanOrEqual(cap);
  });

  it('a restore alone keeps the journal under its cap', async () => {
    s = await sandbox();
    // Old history the prune may drop: ten versions of one file.
    for (let v = 0; v < 10; v++)
      await s.memory.write('/memories/old.md', `${v}\n` + 'history\n'.repeat(400), 'any');
    const deletes: string[] = [];
    for (let i = 0; i < 5; i++) {
      await s.memory.create(`/memories/gone-${i}.md`, `${i}\n` + 'deleted then restored\n'.repeat(150));
      deletes.push((await s.memory.delete(`/memories/gone-${i}.md`)).journalId);
    }
    // Reopened with a cap just above the journal's size: five restores take it past the cap.
    const cap = (await journalBytes(s)) + 600;
    await s.memory.close();
    s.memory = await createMemory({ dataDir: s.dataDir, watch: false, limits: { journalCapBytes: cap } });
    for (const id of deletes) await s.memory.restore(id);
    expect((await s.memory.read('/memories/gone-4.md')).content).toBe(
      '4\n' + 'deleted then restored\n'.repeat(150),
    );
    expect(await journalBytes(s)).toBeLessThanOrEqual(cap);
  });

  it("another program's edits, noticed by the watcher or at start, keep the journal under its cap", async () => {
    const cap = 20_000;
    s = await sandbox({ watch: true, watchDebounceMs: 20, limits: { journalCapBytes: cap } });
    const file = path.join(s.dataDir, 'memories', 'outside.md');
    const seen = (n: number) =>
      new Promise<void>((resolve) => {
        let count = 0;
        const off = s!.memory.onChange((e) => {
          if (e.actor === 'external' && ++count === n) {
            off();
            resolve();
          }
        });
      });
    // Each version is new content (its blob goes into the journal): five of them pass the cap.
    for (let i = 0; i < 5; i++) {
      const noticed = seen(1);
      await writeFile(file, `${i}\n` + 'another program wrote this\n'.repeat(200));
      await noticed;
    }
    expect((await s.memory.history('/memories/outside.md'))[0]!.actor).toBe('external');
    expect(await journalBytes(s)).toBeLessThanOrEqual(cap);
    // And while the app was closed: recovery records them at the next start, through the same path.
    await s.memory.close();
    for (let i = 0; i < 5; i++)
      await writeFile(path.join(s.dataDir, 'memories', `closed-${i}.md`), `${i}\n` + 'x'.repeat(5000));
    s.memory = await createMemory({ dataDir: s.dataDir, watch: false, limits: { journalCapBytes: cap } });
    expect((await s.memory.history('/memories/closed-4.md'))[0]!.actor).toBe('external');
    expect(await journalBytes(s)).toBeLessThanOrEqual(cap);
  });

  it('limits change through setLimits and apply to the next change', async () => {
    s = await sandbox();
    await s.memory.create('/memories/a.md', 'x'.repeat(2000) + ' end');
    s.memory.setLimits({ fileCapBytes: 1000 });
    expect(s.memory.limits.fileCapBytes).toBe(1000);
    const r = await s.memory.tool.execute(
      { command: 'str_replace', path: '/memories/a.md', old_str: ' end', new_str: ' the end' },
      agent,
    );
    expect(r.isError).toBe(true);
    expect(r.content).toContain('1000-byte limit');
  });

  it('the limits it returns are a frozen copy: changing them changes nothing', async () => {
    s = await sandbox({ limits: { fileCapBytes: 1000 } });
    const limits = s.memory.limits as { fileCapBytes: number };
    expect(() => {
      limits.fileCapBytes = 10_000;
    }).toThrow(TypeError);
    expect(() => Object.assign(s!.memory.limits, { fileCapBytes: 10_000 })).toThrow(TypeError);
    expect(s.memory.limits.fileCapBytes).toBe(1000);
    const r = await s.memory.tool.execute(
      { command: 'create', path: '/memories/big.md', file_text: 'x'.repeat(2000) },
      agent,
    );
    expect(r.isError).toBe(true);
    expect(r.content).toContain('1000-byte limit');
  });
});
