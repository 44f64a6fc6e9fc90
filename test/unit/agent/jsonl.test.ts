// JSONL files: appends are whole lines; a torn last line is skipped and cut off; after a failed write
// nothing more is appended (the file stays a prefix).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonlWriter, readJsonl } from '../../../electron/core/conversations/jsonl.js';

let dir: string;
beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'mnemo-jsonl-'))));
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe('jsonl', () => {
  it('appends in order and reads back', async () => {
    const file = path.join(dir, 'a.jsonl');
    const w = new JsonlWriter(file);
    await Promise.all([w.append([{ n: 1 }]), w.append([{ n: 2 }, { n: 3 }])]);
    await w.close();
    expect((await readJsonl<{ n: number }>(file)).records.map((r) => r.n)).toEqual([1, 2, 3]);
  });

  it('resolves each of many concurrent appends only once its line is on disk, in order', async () => {
    const file = path.join(dir, 'many.jsonl');
    const w = new JsonlWriter(file);
    const seenOnResolve: number[] = [];
    await Promise.all(
      Array.from({ length: 200 }, (_, n) =>
        w.append([{ n }]).then(async () => {
          const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
          if (lines.some((l) => (JSON.parse(l) as { n: number }).n === n)) seenOnResolve.push(n);
        }),
      ),
    );
    await w.close();
    expect(seenOnResolve).toHaveLength(200);
    expect((await readJsonl<{ n: number }>(file)).records.map((r) => r.n)).toEqual(
      Array.from({ length: 200 }, (_, n) => n),
    );
  });

  it('skips and cuts off a torn last line', async () => {
    const file = path.join(dir, 'b.jsonl');
    await writeFile(file, '{"n":1}\n{"n":2}\n{"n":3');
    const read = await readJsonl<{ n: number }>(file);
    expect(read.records.map((r) => r.n)).toEqual([1, 2]);
    expect(read.skipped).toBe(1);
    expect(await readFile(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n');
    const w = new JsonlWriter(file);
    await w.append([{ n: 4 }]);
    await w.close();
    expect((await readJsonl<{ n: number }>(file)).records.map((r) => r.n)).toEqual([1, 2, 4]);
  });

  it('refuses further appends after a failure', async () => {
    const w = new JsonlWriter(path.join(dir, 'missing-folder', 'c.jsonl'));
    await expect(w.append([{ n: 1 }])).rejects.toThrow(/could not be saved \(ENOENT\)/);
    await expect(w.append([{ n: 2 }])).rejects.toThrow(/could not be saved/);
    await expect(w.flushed()).rejects.toThrow();
  });
});
