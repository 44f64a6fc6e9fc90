// The fault suite's child process (node [--import fs-faults.js] dist/test/faults/bundled/worker.js <dataDir> <seed>):
// the real backend (createCore) on a data folder, against a fake Messages API of its own. It reports what
// the restart found (state), continues every conversation once (check), then runs the random workload
// until the parent kills it. Env: MNEMO_FAULTS_DISK=<bytes> fills the disk after a few operations.
import { createCore } from '../../electron/core/create-core.js';
import { startFakeAnthropic, validateRequest } from '../fixtures/fake-anthropic/index.js';
import { BackendClient, Hang, Refused, faultHost } from './backend-client.js';
import type { FsFaults } from './fs-faults.js';
import { emit } from './protocol.js';
import { snapshot } from './snapshot.js';
import { runOp, type OpContext, type WorkerState } from './worker-ops.js';
import { Workload, rng } from './workload.js';

async function main(): Promise<void> {
  const [dataDir, seedArg] = process.argv.slice(2);
  const seed = Number(seedArg);
  const fake = await startFakeAnthropic();
  const started = performance.now();
  const core = await createCore({
    dataDir: dataDir!,
    host: faultHost,
    env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url, HOME: dataDir },
  });
  // Moments worth killing at: a tool call stored and not yet answered, a message just saved.
  const client = new BackendClient(core, (e) => {
    if (e.type === 'tool.call' || e.type === 'message.done') emit({ t: 'mark', what: e.type });
  });
  const list = await client.call('conversations.list', {});
  // performance.now() counts from the process's start: module loading included.
  emit({
    t: 'ready',
    ms: Math.round(performance.now() - started),
    sinceStart: Math.round(performance.now()),
  });

  const found = await snapshot(
    client,
    dataDir!,
    list.conversations.map((c) => ({ id: c.id, title: c.title })),
  );
  emit(found);
  const state: WorkerState = {
    files: new Map(),
    conversations: list.conversations.map((c) => c.id),
    n: 0,
    failures: 0,
  };
  const resync = async (): Promise<void> => {
    state.files.clear();
    for (const e of await core.ctx.memory.list())
      if (e.kind === 'file') state.files.set(e.path, (await core.ctx.memory.read(e.path)).content);
  };
  await resync();
  const faults = (globalThis as { __mnemoFsFaults?: FsFaults }).__mnemoFsFaults;
  const ctx: OpContext = {
    client,
    fake,
    state,
    seed,
    requests: [],
    diskTripped: () => faults?.tripped ?? false,
  };

  // Every conversation once: the API must accept the request its history builds.
  if (core.ctx.settings.get().memoryWriteMode !== 'automatic')
    await client.call('settings.set', { patch: { memoryWriteMode: 'automatic' } });
  for (const c of found.conversations) {
    const before = ctx.requests.length;
    const failures = state.failures;
    let ok = false;
    let detail: string | undefined;
    let busyMs = 0;
    try {
      // A conversation still locked by the killed process ("answering in another window") is a slow
      // restart, not a bricked one: it is printed (the slowest wait), and waited for up to 15 s.
      const started = Date.now();
      let failed = state.failures;
      for (;;) {
        await runOp(ctx, { kind: 'chat', conversationId: c.id, text: `check ${seed} ${c.id}` });
        const busy = state.failures !== failed && /answering in another window/.test(state.lastFailure ?? '');
        if (!busy || Date.now() - started > 15_000) break;
        failed = state.failures;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      busyMs = failed === failures ? 0 : Date.now() - started;
      const sent = ctx.requests.slice(before);
      ok = state.failures === failed && sent.length > 0 && sent.every((r) => r.status === 200);
      if (!ok) {
        const why = sent.map((r) => validateRequest(r.body, r.headers)?.message).find(Boolean);
        detail = `requests answered ${JSON.stringify(sent.map((r) => r.status))}${why ? `: ${why}` : ''}`;
      }
    } catch (error) {
      detail = (error as Error).message;
    }
    emit({ t: 'check', conversationId: c.id, ok, busyMs, ...(detail ? { detail } : {}) });
  }
  const rejected = ctx.requests
    .map((r) => validateRequest(r.body, r.headers)?.message)
    .filter((m): m is string => m !== undefined);
  emit({ t: 'checked', requests: ctx.requests.length, rejected });

  const random = rng(seed ^ 0x5f3759df);
  const diskBytes = process.env.MNEMO_FAULTS_DISK ? Number(process.env.MNEMO_FAULTS_DISK) : undefined;
  let fillAt = diskBytes !== undefined && faults ? Math.floor(random() * 4) : -1;
  emit({ t: 'go', full: fillAt >= 0 });
  const workload = new Workload(seed);
  let failuresWhileFull = 0;
  for (let i = 0; ; i++) {
    if (i === fillAt) {
      faults!.arm(diskBytes!);
      emit({ t: 'disk', full: true });
    }
    const op = workload.next(state);
    const failedBefore = state.failures;
    faults?.clearTripped();
    try {
      await runOp(ctx, op);
    } catch (error) {
      if (error instanceof Hang) {
        emit({ t: 'fail', n: state.n, message: `HANG: ${error.message}`, full: ctx.diskTripped() });
        process.exit(4);
      }
      throw error;
    }
    const tripped = faults?.tripped ?? false;
    if (tripped || state.failures !== failedBefore) await resync().catch(() => undefined);
    // The user frees some space after three refusals (or a dozen operations that fit).
    if (fillAt >= 0 && i >= fillAt && ((tripped && ++failuresWhileFull >= 3) || i - fillAt >= 12)) {
      faults!.disarm();
      emit({ t: 'disk', full: false });
      failuresWhileFull = 0;
      fillAt = -Infinity;
    }
  }
}

main().catch((error: unknown) => {
  const message = error instanceof Refused ? `refused: ${error.message}` : String((error as Error).stack);
  process.stderr.write(`fault worker failed: ${message}\n`);
  process.exit(3);
});
