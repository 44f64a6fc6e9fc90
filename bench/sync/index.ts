// Sync benchmark (issue 16, point 8), against the loopback git server (git http-backend):
// - idle sync (nothing changed on either side) of a space with 1,000 files and 100 conversations, beside
//   its baseline measured in the same run: one bare request for the remote's head (what an idle sync
//   cannot do without). Target: under 200 ms.
// - first sync of a space with 10,000 files: the push from A, then the pull into B (every file through
//   the memory's guarded write path and journal), with progress on stderr. Target: under 60 s each.
// - a change on A visible on B, both on the app's schedule with the periodic check at 5 s. Target: 10 s.
// Data lives on the real disk (/var/tmp).
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { createCore, type Core } from '../../electron/core/create-core.js';
import { benchHost as host, round, seedDataFolder } from '../seed-folder.js';
import { median, ms } from '../timing.js';
import { PERSONAL_ID } from '../../electron/core/spaces/index.js';
import { spaceChanges, spaceSyncOf, SyncScheduler, type SpaceSync } from '../../electron/core/sync/index.js';
import { GitStore } from '../../electron/core/sync/git-store.js';
import { DEFAULT_TOKEN, DEFAULT_USER, startGitServer } from '../../test/fixtures/git-server/index.js';
import type { BenchTable } from '../table.js';

/** The seeded folder of this benchmark (bench/seed-folder.ts). */
const seed = (dir: string, files: number, conversations: number): Promise<void> =>
  seedDataFolder(dir, { files, conversations, folders: 20, note: (i) => `# Note ${i}\n- fact ${i}\n` });

interface Dev {
  core: Core;
  sync: SpaceSync;
}

async function open(dir: string, url: string, name: string): Promise<Dev> {
  const core = await createCore({ dataDir: dir, host, env: {} });
  const sync = await spaceSyncOf(core, PERSONAL_ID);
  sync.config.setRemote({ url, username: DEFAULT_USER, device: name });
  sync.config.setToken(DEFAULT_TOKEN);
  return { core, sync };
}

export async function run(
  idleFiles = Number(process.env.MNEMO_BENCH_SYNC_FILES ?? 1_000),
  bigFiles = Number(process.env.MNEMO_BENCH_SYNC_BIG ?? 10_000),
  repeats = 15,
): Promise<BenchTable> {
  const base = await fsp.mkdtemp('/var/tmp/mnemo-bench-sync-');
  const server = await startGitServer({ root: path.join(base, 'server') });
  const say = (what: string): boolean => process.stderr.write(`sync bench: ${what}\n`);
  const devices: Dev[] = [];
  try {
    const rows: BenchTable['rows'] = [];
    // Idle sync.
    const url = server.createRepo('idle');
    await seed(path.join(base, 'a'), idleFiles, 100);
    const a = await open(path.join(base, 'a'), url, 'A');
    const b = await open(path.join(base, 'b'), url, 'B');
    devices.push(a, b);
    say(`first sync of ${idleFiles} files and 100 conversations`);
    await a.sync.sync();
    await b.sync.sync();
    await a.sync.sync();
    const store = new GitStore(path.join(base, 'probe.git'));
    await store.init();
    const auth = { url, username: DEFAULT_USER, token: DEFAULT_TOKEN };
    const floor: number[] = [];
    const idleA: number[] = [];
    const idleB: number[] = [];
    for (let i = 0; i < repeats; i++) {
      floor.push(await ms(() => store.remoteHead(auth)));
      idleA.push(
        await ms(async () => {
          const r = await a.sync.sync();
          if (r.outcome !== 'up-to-date') throw new Error('the idle sync moved something');
        }),
      );
      idleB.push(await ms(() => b.sync.sync()));
    }
    const f = median(floor);
    for (const [name, values] of [
      ['idle sync, A', idleA],
      ['idle sync, B', idleB],
    ] as const) {
      const m = median(values);
      rows.push({
        case: `${name} (${idleFiles} files, 100 conversations)`,
        'ms (median)': round(m),
        'baseline ms': round(f),
        'ours / baseline': round(m / f),
        target: '< 200 ms',
        ok: m < 200 ? 'yes' : 'NO',
      });
    }

    // Change on A visible on B with a 5 s periodic check (the app's schedule: 2 s after a change).
    const sa = new SyncScheduler(a.sync, {
      periodMs: 5_000,
      onChange: await spaceChanges(a.core, PERSONAL_ID),
    });
    const sb = new SyncScheduler(b.sync, {
      periodMs: 5_000,
      onChange: await spaceChanges(b.core, PERSONAL_ID),
    });
    sa.start();
    sb.start();
    await new Promise((r) => setTimeout(r, 1_000));
    const latencies: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = Date.now();
      await a.core.ctx.memory.create(`/memories/fresh-${i}.md`, `- fresh ${i}\n`, { kind: 'user' });
      for (;;) {
        const there = await b.core.ctx.memory.read(`/memories/fresh-${i}.md`).then(
          () => true,
          () => false,
        );
        if (there) break;
        if (Date.now() - start > 30_000) throw new Error('the change never arrived');
        await new Promise((r) => setTimeout(r, 50));
      }
      latencies.push(Date.now() - start);
      say(`change ${i + 1} visible on B after ${latencies.at(-1)} ms`);
    }
    await sa.stop();
    await sb.stop();
    const worst = Math.max(...latencies);
    rows.push({
      case: 'change on A visible on B (5 s check)',
      'ms (median)': median(latencies),
      'baseline ms': 5_000,
      'ours / baseline': round(worst / 5_000),
      target: '< 10,000 ms (worst)',
      ok: worst < 10_000 ? 'yes' : 'NO',
    });

    // First sync of a big space.
    const bigUrl = server.createRepo('big');
    await seed(path.join(base, 'c'), bigFiles, 0);
    const c = await open(path.join(base, 'c'), bigUrl, 'C');
    const d = await open(path.join(base, 'd'), bigUrl, 'D');
    devices.push(c, d);
    const onProgress = (phase: string, done: number, total: number): void =>
      void (total > 0 && done % 1_000 < 250 && say(`${phase} ${done}/${total}`));
    const push = await ms(() => c.sync.sync({ onProgress }));
    say(`pushed ${bigFiles} files in ${round(push)} ms`);
    const pull = await ms(() => d.sync.sync({ onProgress }));
    say(`pulled ${bigFiles} files in ${round(pull)} ms`);
    const got = (await d.core.ctx.memory.list()).filter((e) => e.kind === 'file').length;
    if (got !== bigFiles) throw new Error(`B holds ${got} of ${bigFiles} files`);
    const perFile = await ms(() =>
      d.core.ctx.memory.write('/memories/one-more.md', 'x\n', null, { kind: 'user' }),
    );
    for (const [name, value] of [
      ['first sync, push', push],
      ['first sync, pull', pull],
    ] as const) {
      rows.push({
        case: `${name} (${bigFiles} files)`,
        'ms (median)': round(value),
        'baseline ms': round(perFile * bigFiles),
        'ours / baseline': round(value / (perFile * bigFiles)),
        target: '< 60,000 ms',
        ok: value < 60_000 ? 'yes' : 'NO',
      });
    }
    return {
      title: 'sync (loopback git http-backend; baselines: a bare ref request; one memory write per file)',
      rows,
    };
  } finally {
    for (const dev of devices) await dev.core.close().catch(() => undefined);
    await server.close();
    await fsp.rm(base, { recursive: true, force: true });
  }
}
