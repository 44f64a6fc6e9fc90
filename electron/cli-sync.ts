// The terminal's sync commands (issue 16): `--sync-remote URL [--space NAME] [--yes]` sets a space's
// remote and joins it (token from MNEMO_SYNC_TOKEN, user from the URL or MNEMO_SYNC_USER, device name
// from MNEMO_SYNC_DEVICE or the host name); `--sync [--space NAME]` syncs now and prints what moved, each
// conflict and each refused entry with why (`--sync-push-mine` / `--sync-take-theirs` after a force-push
// elsewhere). Exit codes: 0 done, 1 the sync failed (the message says why), 2 bad usage or a join that
// needs --yes. A chat run in a space with a remote syncs at its start and its end (chatSync).
import type { Core } from './core/create-core.js';
import { PERSONAL_ID } from './core/spaces/index.js';
import { parseRemoteUrl } from './core/sync/config.js';
import { SyncError, type SyncReport } from './core/sync/report.js';
import type { SyncCommand } from './cli-sync-args.js';

type Print = (line: string) => void;

export async function runSyncCommand(
  core: Core,
  command: SyncCommand,
  env: NodeJS.ProcessEnv,
  out: Print,
  err: Print,
): Promise<number> {
  const spaceId = await spaceIdOf(core, command.space, command.kind === 'remote');
  if (!spaceId) {
    err(`There is no space named “${command.space ?? ''}”: mnemo --spaces lists them.`);
    return 2;
  }
  // The core's own SyncService (one code path with the window's sync.* channels); a one-off run never
  // starts its schedulers, so each call below syncs at once.
  const sync = await core.sync.of(spaceId);
  const label = (await core.spaces.registry.get(spaceId))?.name ?? 'Personal';
  try {
    if (command.kind === 'remote') {
      const joined = await join(core, spaceId, label, command, env, out, err);
      if (joined !== 0) return joined;
    } else if (!sync.configured()) {
      err(`The space “${label}” has no sync remote: set one with --sync-remote URL.`);
      return 2;
    }
    const report = await core.sync.syncNow(
      spaceId,
      command.kind === 'sync' && command.resolve ? { resolve: command.resolve } : undefined,
    );
    if (report.backup) out(`  backup: ${report.backup}`);
    printReport(report, label, out);
    return 0;
  } catch (error) {
    if (error instanceof SyncError) {
      err(`Sync failed: ${error.message}`);
      if (error.kind === 'rewritten')
        err('  Run again with --sync --sync-push-mine, or --sync --sync-take-theirs.');
      return 1;
    }
    throw error;
  }
}

async function join(
  core: Core,
  spaceId: string,
  label: string,
  command: Extract<SyncCommand, { kind: 'remote' }>,
  env: NodeJS.ProcessEnv,
  out: Print,
  err: Print,
): Promise<number> {
  let username: string | undefined;
  try {
    username = parseRemoteUrl(command.url).username ?? env.MNEMO_SYNC_USER?.trim();
  } catch (error) {
    err((error as Error).message);
    return 2;
  }
  const token = env.MNEMO_SYNC_TOKEN?.trim();
  if (!token) {
    err('Give the token in MNEMO_SYNC_TOKEN (it is stored owner-only on this device and never shown again).');
    return 2;
  }
  if (!username) {
    err('Give the user name in the address (https://USER@host/...) or in MNEMO_SYNC_USER.');
    return 2;
  }
  const device = env.MNEMO_SYNC_DEVICE?.trim();
  const result = await core.sync.join(spaceId, {
    url: command.url,
    token,
    username,
    ...(device ? { device } : {}),
    confirmOtherSpace: command.yes,
  });
  if (!result.joined) {
    err(
      `The remote holds another space, “${result.otherSpace.name}”. Joining merges it into “${label}” ` +
        `(${result.memoryFiles} memory files, ${result.conversations} conversations here): nothing is ` +
        `deleted, files both hold are merged or kept twice. Run again with --yes to join.`,
    );
    return 2;
  }
  out(`“${label}” now syncs with ${result.url} as “${result.device}”.`);
  out('Its memory and conversations on the remote are as readable as the remote is.');
  return 0;
}

async function spaceIdOf(core: Core, name: string | undefined, create: boolean): Promise<string | undefined> {
  if (name === undefined) return PERSONAL_ID;
  if (create) return (await core.spaces.ensure(name)).space.id;
  return (await core.spaces.find(name))?.id;
}

export function printReport(report: SyncReport, label: string, out: Print): void {
  for (const r of report.received) out(`  received: ${r.path} (${r.change})`);
  for (const s of report.sent) out(`  sent: ${s}`);
  for (const c of report.conflicts) {
    out(
      `  conflict: ${c.path}: changed in the same place here and on ${c.device}; this device's version stays, ` +
        `the other is kept beside the space until you resolve it`,
    );
  }
  for (const r of report.refused) out(`  ${r.path}: refused, ${r.reason} (left on the remote as it is)`);
  for (const h of report.held) out(`  not sent: ${h.path}: ${h.reason}`);
  for (const p of report.pending) out(`  waiting: ${p.path}: ${p.reason} (tried again at the next sync)`);
  for (const f of report.forgotten)
    out(`  forgotten: ${f.path} (forgotten permanently on ${f.device}, which sent it; erased here too)`);
  for (const n of report.notes) out(`  note: ${n}`);
  out(report.outcome === 'up-to-date' ? `“${label}” is up to date.` : `“${label}” synced.`);
}

/** A chat's sync at its start and end, when the space has a remote: a failure is said, never fatal. */
export async function chatSync(core: Core, spaceId: string, err: Print): Promise<void> {
  if (!core.sync.hasRemote(spaceId)) return;
  try {
    const report = await core.sync.syncNow(spaceId);
    if (report.outcome === 'synced')
      printReport(report, (await core.spaces.registry.get(spaceId))?.name ?? 'Personal', (l) =>
        err(`[sync] ${l.trim()}`),
      );
  } catch (error) {
    if (!(error instanceof SyncError)) throw error;
    err(`[sync] not synced: ${error.message}`);
  }
}
