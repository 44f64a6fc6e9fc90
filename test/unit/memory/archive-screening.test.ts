// Screening an import reads entries one at a time against the memory's quota: a small zip that expands a
// thousandfold is refused having inflated no more than the quota plus one entry, and a large legitimate
// import lets the event loop run between entries (the chat stream and the UI socket share the process).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  ArchiveError,
  defaultArchiveLimits,
  ImportSessions,
  readSource,
  type SourceEntry,
} from '../../../memory/archive/index.js';
import { screenEntries } from '../../../memory/archive/screen.js';
import { createMemory, defaultLimits, type Memory } from '../../../memory/index.js';

const ENTRY = 100_000; // under the 100 KiB per-file cap, so each entry on its own is acceptable

/** `count` text files of ENTRY bytes each; `vary` makes their content differ (less compressible). */
function archive(count: number, vary: boolean): Uint8Array {
  const files: Zippable = {};
  for (let i = 0; i < count; i++) {
    const line = vary ? `note ${i}: ${'abcdefghij'.repeat(3)} ${i * 7919}\n` : 'x\n';
    files[`memories/notes/n${String(i).padStart(4, '0')}.md`] = strToU8(
      line.repeat(Math.ceil(ENTRY / line.length)).slice(0, ENTRY),
    );
  }
  return zipSync(files, { level: 9 });
}

/** The source's entries, each counting what it inflates. */
async function counted(data: Uint8Array): Promise<{ entries: SourceEntry[]; reads: number[] }> {
  const reads: number[] = [];
  const entries = (await readSource({ kind: 'zip', name: 'x.zip', data }, defaultArchiveLimits)).map(
    (e): SourceEntry => ({
      ...e,
      read: async () => {
        const bytes = await e.read();
        reads.push(bytes.length);
        return bytes;
      },
    }),
  );
  return { entries, reads };
}

let dir: string;
let memory: Memory | undefined;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mnemo-screen-'));
});
afterEach(async () => {
  await memory?.close();
  memory = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe('a zip bomb (a small archive expanding past the quota)', () => {
  const bomb = archive(400, false); // 40 MB of text in well under 100 KB

  test('is refused with the quota in the message, having inflated at most the quota plus one entry', async () => {
    expect(bomb.length).toBeLessThan(100_000);
    const { entries, reads } = await counted(bomb);
    const screening = screenEntries(entries, defaultLimits, defaultArchiveLimits);
    await expect(screening).rejects.toThrow(ArchiveError);
    await expect(screening).rejects.toThrow(/more than 10485760 bytes, the memory's whole quota/);
    const inflated = reads.reduce((a, b) => a + b, 0);
    expect(inflated).toBeLessThanOrEqual(defaultLimits.quotaBytes + defaultLimits.fileCapBytes);
    // The entries after the one that passed the quota were never inflated.
    expect(reads.length).toBe(Math.floor(defaultLimits.quotaBytes / ENTRY) + 1);
  });

  test('the preview refuses it and imports nothing', async () => {
    memory = await createMemory({ dataDir: path.join(dir, 'data'), watch: false });
    const sessions = new ImportSessions(memory);
    await expect(sessions.preview({ kind: 'zip', name: 'bomb.zip', data: bomb })).rejects.toThrow(
      /Nothing was imported/,
    );
    expect(await memory.list()).toEqual([]);
  });
});

test('the event loop keeps turning while a large legitimate import is screened', async () => {
  const { entries, reads } = await counted(archive(90, true)); // 9 MB, inside the quota
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  let ticksDuring = -1;
  try {
    const screened = await screenEntries(entries, defaultLimits, defaultArchiveLimits).finally(() => {
      ticksDuring = ticks;
    });
    expect(screened.incoming).toHaveLength(90);
  } finally {
    clearInterval(timer);
  }
  expect(reads).toHaveLength(90);
  expect(ticksDuring).toBeGreaterThan(0);
});
