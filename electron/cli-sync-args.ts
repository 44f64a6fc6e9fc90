// The flags of the terminal's sync commands (cli-sync.ts runs them): parsed before anything of the backend
// is loaded, so `--help` and a usage error cost no more than reading this.

export const syncOptions = {
  'sync-remote': { type: 'string' },
  sync: { type: 'boolean' },
  'sync-push-mine': { type: 'boolean' },
  'sync-take-theirs': { type: 'boolean' },
} as const;

export const SYNC_USAGE = `  --sync-remote URL         sync the space (--space NAME, else Personal) through this git remote (https);
                            token from MNEMO_SYNC_TOKEN, user from the URL or MNEMO_SYNC_USER
  --sync                    sync the space now; prints what moved, conflicts and refused entries
  --sync-push-mine          with --sync, after the remote's history was rewritten: push this copy over it
  --sync-take-theirs        with --sync, after the remote's history was rewritten: take the remote's copy
                            (this space is backed up first)`;

export type SyncCommand =
  | { kind: 'remote'; url: string; space: string | undefined; yes: boolean }
  | { kind: 'sync'; space: string | undefined; resolve?: 'push-mine' | 'take-theirs' };

interface SyncValues {
  forget?: string | undefined;
  'forget-permanently'?: string | undefined;
  'sync-remote'?: string | undefined;
  sync?: boolean | undefined;
  'sync-push-mine'?: boolean | undefined;
  'sync-take-theirs'?: boolean | undefined;
  space?: string | undefined;
  yes?: boolean | undefined;
}

export function syncCommandOf(
  v: SyncValues,
  positionals: string[],
  usage: (message: string) => Error,
): SyncCommand | undefined {
  const resolve = v['sync-push-mine'] ? 'push-mine' : v['sync-take-theirs'] ? 'take-theirs' : undefined;
  if (v['sync-remote'] === undefined && !v.sync) {
    if (resolve) throw usage('--sync-push-mine and --sync-take-theirs go with --sync.');
    return undefined;
  }
  if (v['sync-remote'] !== undefined && v.sync)
    throw usage('--sync-remote joins and syncs: leave out --sync.');
  if (positionals.length > 0) throw usage('The sync commands take no message.');
  if (v.forget !== undefined || v['forget-permanently'] !== undefined)
    throw usage('Forget first, then sync: the two cannot be given together.');
  if (v['sync-push-mine'] && v['sync-take-theirs'])
    throw usage('Choose one: --sync-push-mine or --sync-take-theirs.');
  if (v['sync-remote'] !== undefined) {
    if (resolve) throw usage('--sync-push-mine and --sync-take-theirs go with --sync.');
    if (!v['sync-remote'].trim()) throw usage('--sync-remote needs the address of a git repository.');
    return { kind: 'remote', url: v['sync-remote'], space: v.space, yes: v.yes === true };
  }
  if (v.yes) throw usage('--yes goes with --sync-remote, --delete-space or a forget.');
  return { kind: 'sync', space: v.space, ...(resolve ? { resolve } : {}) };
}
