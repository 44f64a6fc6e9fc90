// Isolation as a security property: with canary files in space A (closed) and in Personal (open), every
// hostile memory command of the memory test table (test/unit/memory/hostile-cases*.ts), plus paths aimed
// at the other spaces' folders, runs as the model in a fresh space B through the real backend and the
// fake Messages API. Each is refused or stays inside B; nothing of A or Personal changes; no request, tool
// result or event names A's canary, its id or name, or a host path.
import { existsSync } from 'node:fs';
import { lstat, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { text, toolUse } from '../../fixtures/fake-anthropic/index.js';
import { hostileCases, type HostileCase } from '../../unit/memory/hostile-cases.js';
import type { Sandbox } from '../../unit/memory/helpers.js';
import { type Harness, startHarness } from '../agent/harness.js';
import { follow, ofType, sendIn } from './support.js';

const CANARY_A = 'A-CANARY-5f1e0c';
const CANARY_P = 'P-CANARY-93ab7d';
let h: Harness;
let base: string;
let aId: string;
let aDir: string;

/** What an entry listed in a folder was gone by the time it was read (it came and went). */
const VANISHED = 'vanished while read';

/** `read()`, or VANISHED when the entry is no longer there. */
const unlessGone = <T>(read: Promise<T>): Promise<T | typeof VANISHED> =>
  read.catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return VANISHED;
    throw error;
  });

/**
 * Everything under `dir`: relative path -> content, 'dir' or 'link'. An entry that vanishes between the
 * listing and its reading is kept as VANISHED, not skipped: in a folder nothing may touch, something
 * coming and going is itself what the comparison must show.
 */
async function snapshot(
  dir: string,
  out: Record<string, string> = {},
  rel = '',
): Promise<Record<string, string>> {
  for (const name of (await readdir(path.join(dir, rel)).catch(() => [])).sort()) {
    const r = path.join(rel, name);
    const st = await unlessGone(lstat(path.join(dir, r)));
    if (st === VANISHED) out[r] = VANISHED;
    else if (st.isDirectory()) {
      out[r] = 'dir';
      await snapshot(dir, out, r);
    } else if (st.isSymbolicLink()) out[r] = 'link';
    else out[r] = await unlessGone(readFile(path.join(dir, r), 'utf8'));
  }
  return out;
}

/** The strings of a tool input (what the model itself said may come back to it). */
const stringsOf = (input: unknown): string[] =>
  typeof input === 'string'
    ? [input]
    : input && typeof input === 'object'
      ? Object.values(input).flatMap(stringsOf)
      : [];

const others = async () => ({
  a: await snapshot(aDir),
  personal: {
    memories: await snapshot(path.join(h.dataDir, 'memories')),
    // Its lock and the lock's owner record included: Personal's memory, open and idle, takes no lock
    // while B works, and nothing B does may take it either.
    journal: await snapshot(path.join(h.dataDir, 'memory-journal')),
    conversations: await snapshot(path.join(h.dataDir, 'conversations')),
  },
});

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'mnemo-isolation-'));
  h = await startHarness({ dataDir: path.join(base, 'data') });
  await h.core.ctx.memory.create('/memories/personal.md', `${CANARY_P}\n`, { kind: 'user' });
  const alpha = await h.core.spaces.create({ name: 'Alpha Client' });
  aId = alpha.id;
  aDir = path.join(h.dataDir, 'spaces', aId);
  // The unit table's links point at `outside/secret.txt`: here that is space A's memory folder.
  await writeFile(path.join(aDir, 'memories', 'secret.txt'), `outside content ${CANARY_A}\n`);
  await writeFile(path.join(aDir, 'memories', 'notes.md'), `# Alpha\n${CANARY_A} merger plans\n`);
  // Opened again, so that what Personal's memory scheduled for itself after those writes (its watcher
  // looking at its own write, a deferred checkpoint, a state save) is done before the cases, not during one.
  await h.restart();
  // Its lease from opening given back (the lock's folder goes with it) before the first case looks.
  await vi.waitFor(() => expect(existsSync(path.join(h.dataDir, 'memory-journal', 'lock'))).toBe(false));
});
afterAll(async () => {
  await h.close();
  await rm(base, { recursive: true, force: true });
});

const byModel = hostileCases.filter((c) => c.tool !== undefined);
const aimed = (): HostileCase[] =>
  [
    `/memories/../spaces/${aId}/memories/notes.md`,
    `/memories/../../${aId}/memories/notes.md`,
    '/memories/../../../memories/personal.md',
    '/memories/../space.json',
    `/spaces/${aId}/memories/notes.md`,
    path.join(aDir, 'memories', 'notes.md'),
    `file://${path.join(aDir, 'memories', 'notes.md')}`,
  ].map((p) => ({
    category: 'paths',
    name: `aimed at another space: ${p}`,
    tool: { command: 'view', path: p },
    message: /./,
  }));

describe('space isolation against hostile memory commands', () => {
  it('has the whole table of model-side cases', () => {
    expect(byModel.length).toBeGreaterThanOrEqual(50);
  });

  it(
    'every hostile command in space B is refused or stays in B; A and Personal are untouched',
    { timeout: 240_000 },
    async () => {
      const failures: string[] = [];
      for (const c of [...byModel, ...aimed()]) {
        const label = `${c.category}: ${c.name}`;
        const { space } = await h.core.spaces.ensure(`B ${byModel.indexOf(c)} ${c.name.slice(0, 30)}`);
        const b = await h.core.spaces.open(space.id);
        const sandbox: Sandbox = {
          base,
          dataDir: path.join(h.dataDir, 'spaces', space.id),
          outside: path.join(aDir, 'memories'),
          memory: b.ctx.memory,
          cleanup: async () => undefined,
        };
        if (c.limits) b.ctx.memory.setLimits(c.limits);
        await c.setup?.(sandbox);
        const before = await others();
        const followed = follow(b);
        const seen: string[] = [];
        b.bus.subscribe((name, payload) => seen.push(JSON.stringify({ name, payload })));
        const requestsBefore = h.fake.messageRequests().length;
        h.fake.enqueue(toolUse({ name: 'memory', input: c.tool as never }), text('Done.'));
        const { events } = await sendIn(b, followed, `hostile case ${failures.length}`);
        const results = ofType(events, 'tool.result');
        let exposed = [
          ...h.fake
            .messageRequests()
            .slice(requestsBefore)
            .map((r) => JSON.stringify(r.body)),
          ...seen,
        ].join('\n');
        for (const said of stringsOf(c.tool).filter((t) => t.length > 3))
          exposed = exposed.split(said).join('');
        const inputNamesA = JSON.stringify(c.tool).includes(aId);
        const problems = [
          results.length === 1 ? '' : `${results.length} tool results`,
          results[0] && !results[0].isError ? `not refused: ${results[0].result.slice(0, 120)}` : '',
          results[0] && c.message.source !== '.' && !c.message.test(results[0].result)
            ? `message: ${results[0].result.slice(0, 160)}`
            : '',
          exposed.includes(CANARY_A) ? 'A canary exposed' : '',
          exposed.includes(CANARY_P) ? 'Personal canary exposed' : '',
          exposed.includes(base) ? 'host path exposed' : '',
          exposed.includes('Alpha Client') ? 'A name exposed' : '',
          !inputNamesA && exposed.includes(aId) ? 'A id exposed' : '',
        ].filter(Boolean);
        expect.soft(await others(), label).toEqual(before);
        if (problems.length > 0) failures.push(`${label}: ${problems.join('; ')}`);
        await h.core.spaces.delete(space.id);
        // Emptied at once: a hard link B planted to A's file would otherwise live on in the trash.
        await h.core.spaces.registry.emptyTrash(0, Date.now() + 1);
      }
      expect(failures).toEqual([]);
    },
  );
});
