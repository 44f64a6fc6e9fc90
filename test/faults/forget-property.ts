// The property behind "Forget permanently" with sync: three devices (real backends on their own data
// folders) and a loopback git server, driven by a seeded random sequence of edits, permanent forgets,
// syncs and conflict resolutions. Every line written is a token of its own, so the model knows which
// forget erases which token: a forget erases every token written at its path before it, and every token
// a device writes there before that device has applied the forget (edits made before the tombstone
// arrived). Checked: a device that has applied a forget holds none of its tokens in memory after any
// step; at the end, after every device synced, a forgotten token is in no byte of any data folder (git
// objects decompressed) nor in the remote's reachable history, and every other token is still somewhere
// on some device. `npm test` runs one fixed seed; `npm run test:faults` runs longer ones.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore, type Core } from '../../electron/core/create-core.js';
import { forgetEverywhere } from '../../electron/core/forget.js';
import { PERSONAL_ID } from '../../electron/core/spaces/index.js';
import { SyncError } from '../../electron/core/sync/report.js';
import { spaceSyncOf, type SpaceSync } from '../../electron/core/sync/index.js';
import { DEFAULT_TOKEN, DEFAULT_USER, startGitServer } from '../fixtures/git-server/index.js';
import { placesHolding, reachableObjects } from '../integration/support/data-bytes.js';

const USER = { kind: 'user' } as const;
const PATHS = [
  '/memories/a.md',
  '/memories/b.md',
  '/memories/c.md',
  '/memories/notes/d.md',
  '/memories/notes/e.md',
];
const host = {
  kind: 'browser' as const,
  saveFile: async () => ({ saved: false }),
  pickImport: async () => null,
  openExternal: async () => false,
  openFolder: async () => false,
};

interface Device {
  name: string;
  dataDir: string;
  core: Core;
  sync: SpaceSync;
}

interface Forget {
  path: string;
  step: number;
  /** The tombstone's file name: a device has applied the forget once its tombstone folder holds it. */
  tombstone: string;
}

interface Token {
  text: string;
  path: string;
  step: number;
  /** Forgets of its path the device that wrote it had not applied yet: they erase it when they arrive. */
  doomedBy: Forget[];
}

export interface PropertyResult {
  violations: string[];
  summary: string;
}

/** A small seeded generator (mulberry32): the same seed, the same run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function runForgetProperty(options: {
  seed: number;
  steps: number;
  log?: (line: string) => void;
}): Promise<PropertyResult> {
  const rand = random(options.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const log = options.log ?? (() => undefined);
  const server = await startGitServer();
  const repo = `property-${options.seed}`;
  const url = server.createRepo(repo);
  const devices: Device[] = [];
  const tokens: Token[] = [];
  const forgets: Forget[] = [];
  const violations: string[] = [];
  let n = 0;
  const counts = { edit: 0, forget: 0, sync: 0, resolve: 0 };

  const applied = (f: Forget, d: Device): boolean => tombstones(d.dataDir).includes(f.tombstone);
  /** The forgets that erase `t`. */
  const erasers = (t: Token): Forget[] =>
    forgets.filter((f) => within(t.path, f.path) && (t.step < f.step || t.doomedBy.includes(f)));
  const forgotten = (t: Token): boolean => erasers(t).length > 0;
  const memoryText = (d: Device): string => filesUnder(path.join(d.dataDir, 'memories'));

  try {
    for (const name of ['laptop', 'desktop', 'phone']) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), `mnemo-property-${name}-`));
      const core = await createCore({ dataDir, host, env: {}, syncTiming: { debounceMs: 600_000 } });
      const sync = await spaceSyncOf(core, PERSONAL_ID);
      sync.config.setRemote({ url, username: DEFAULT_USER, device: name });
      sync.config.setToken(DEFAULT_TOKEN);
      devices.push({ name, dataDir, core, sync });
    }

    const syncOnce = async (d: Device, step: number): Promise<void> => {
      counts.sync++;
      try {
        const r = await d.sync.sync();
        log(`  ${d.name}: ${r.outcome}${r.forgotten.map((f) => `, forgot ${f.path}`).join('')}`);
      } catch (error) {
        if (!(error instanceof SyncError)) throw error;
        violations.push(`step ${step}: ${d.name}'s sync failed: ${error.message}`);
      }
    };

    for (let step = 1; step <= options.steps; step++) {
      const d = pick(devices);
      const memory = d.core.ctx.memory;
      const roll = rand();
      if (roll < 0.5) {
        counts.edit++;
        const p = pick(PATHS);
        const text = `tok${options.seed}x${++n}q`;
        let content = `- ${text}\n`;
        try {
          const cur = await memory.read(p);
          // Mostly a line added at the end (two devices doing so meet as a conflict), sometimes a rewrite.
          content = rand() < 0.8 ? `${cur.content}- ${text}\n` : content;
          await memory.write(p, content, cur.version, USER);
        } catch {
          await memory.create(p, content, USER);
        }
        const doomedBy = forgets.filter((f) => within(p, f.path) && !applied(f, d));
        tokens.push({ text, path: p, step, doomedBy });
        log(`${step}: ${d.name} writes ${text} to ${p}`);
      } else if (roll < 0.57) {
        const present = (await memory.list()).filter((e) => e.kind === 'file').map((e) => e.path);
        if (present.length === 0) continue;
        counts.forget++;
        const p = pick(present);
        const before = tombstones(d.dataDir);
        await forgetEverywhere(d.core.ctx, p);
        const made = tombstones(d.dataDir).filter((x) => !before.includes(x));
        if (made.length !== 1)
          violations.push(`step ${step}: ${d.name}'s forget made ${made.length} tombstones`);
        forgets.push({ path: p, step, tombstone: made[0] ?? '' });
        log(`${step}: ${d.name} forgets ${p}`);
        for (const t of tokens.filter(forgotten)) {
          if (t.step < step && within(t.path, p) && placesHolding(d.dataDir, t.text).length > 0)
            violations.push(`step ${step}: ${t.text} is still on ${d.name} right after it forgot ${p}`);
        }
      } else if (roll < 0.9) {
        log(`${step}: ${d.name} syncs`);
        await syncOnce(d, step);
      } else {
        const open = d.sync.conflicts();
        if (open.length === 0) continue;
        counts.resolve++;
        const c = pick(open);
        const keep = rand() < 0.5 ? 'mine' : 'theirs';
        log(`${step}: ${d.name} keeps ${keep} in the conflict on ${c.path}`);
        try {
          await d.sync.resolve(c.id, { keep });
        } catch {
          // Changed meanwhile (an edit of this run): the conflict stays open.
        }
      }
      // A device that applied a forget holds none of its lines in memory, whatever the step was.
      const text = memoryText(d);
      for (const t of tokens)
        if (text.includes(t.text) && erasers(t).some((f) => applied(f, d)))
          violations.push(`step ${step}: ${t.text} (forgotten) is back in ${d.name}'s memory`);
    }

    // Everyone syncs until nothing moves (three rounds at most, as a person's devices would over a day).
    for (let round = 0; round < 3; round++) for (const d of devices) await syncOnce(d, options.steps + 1);
    const remote = reachableObjects(server.repoDir(repo));
    for (const t of tokens) {
      if (forgotten(t)) {
        for (const d of devices)
          for (const place of placesHolding(d.dataDir, t.text))
            violations.push(`${t.text} (forgotten) is still in ${d.name}'s ${place}`);
        if (remote.includes(Buffer.from(t.text)))
          violations.push(`${t.text} (forgotten) is in the remote's reachable history`);
      } else if (!devices.some((d) => placesHolding(d.dataDir, t.text).length > 0)) {
        violations.push(`${t.text} (never forgotten) is lost on every device`);
      }
    }
  } finally {
    for (const d of devices) await d.core.close().catch(() => undefined);
    await server.close();
    for (const d of devices) rmSync(d.dataDir, { recursive: true, force: true });
  }

  const erased = tokens.filter(forgotten).length;
  return {
    violations,
    summary:
      `seed ${options.seed}: ${options.steps} steps (${counts.edit} edits, ${counts.forget} forgets, ` +
      `${counts.sync} syncs, ${counts.resolve} conflicts resolved), ${erased} of ${tokens.length} lines ` +
      `forgotten, ${violations.length} violations`,
  };
}

const within = (inner: string, outer: string): boolean => inner === outer || inner.startsWith(`${outer}/`);

function tombstones(dataDir: string): string[] {
  try {
    return readdirSync(path.join(dataDir, 'sync', 'personal.tombstones'));
  } catch {
    return [];
  }
}

function filesUnder(dir: string): string {
  let out = '';
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const p = path.join(dir, name);
    try {
      out += readFileSync(p, 'utf8');
    } catch {
      out += filesUnder(p);
    }
  }
  return out;
}
