// The flags of the terminal's space commands (cli-spaces.ts runs them): parsed before anything of the backend
// is loaded, so `--help` and a usage error cost no more than reading this.

/** parseArgs options of the space flags (merged into the CLI's own). */
export const spaceOptions = {
  space: { type: 'string' },
  spaces: { type: 'boolean' },
  'rename-space': { type: 'string' },
  'delete-space': { type: 'string' },
  yes: { type: 'boolean' },
} as const;

export const SPACE_USAGE = `  --space NAME              run in that space (its own memory and conversations; created on first use)
  --spaces                  list the spaces with their conversations and memory files
  --rename-space OLD NEW    rename a space
  --delete-space NAME       move a space to the trash (asks first; --yes on a script)`;

export type SpaceCommand =
  | { kind: 'list' }
  | { kind: 'rename'; from: string; to: string }
  | { kind: 'delete'; name: string; yes: boolean };

interface SpaceValues {
  space?: string | undefined;
  spaces?: boolean | undefined;
  'rename-space'?: string | undefined;
  'delete-space'?: string | undefined;
  yes?: boolean | undefined;
}

/** The space command of the flags, if any; `usage` makes the CLI's usage error (exit 2). */
export function spaceCommandOf(
  v: SpaceValues,
  positionals: string[],
  usage: (message: string) => Error,
): SpaceCommand | undefined {
  const given = [
    v.spaces && '--spaces',
    v['rename-space'] !== undefined && '--rename-space',
    v['delete-space'] !== undefined && '--delete-space',
  ].filter((f): f is string => typeof f === 'string');
  if (v.space !== undefined && !v.space.trim()) throw usage('--space needs the name of a space.');
  if (given.length === 0) {
    if (v.yes) throw usage('--yes goes with --delete-space, --forget or --forget-permanently.');
    return undefined;
  }
  if (given.length > 1) throw usage(`${given.join(' and ')} cannot be used together.`);
  if (v.space !== undefined) throw usage(`${given[0]} names its spaces itself; leave out --space.`);
  if (v.spaces) {
    if (positionals.length > 0) throw usage('--spaces takes no message.');
    return { kind: 'list' };
  }
  if (v['rename-space'] !== undefined) {
    if (positionals.length !== 1 || !positionals[0]!.trim() || !v['rename-space'].trim())
      throw usage('--rename-space needs the old and the new name: --rename-space OLD NEW.');
    return { kind: 'rename', from: v['rename-space'], to: positionals[0]! };
  }
  if (positionals.length > 0 || !v['delete-space']!.trim())
    throw usage('--delete-space needs the name of the space, and nothing else.');
  return { kind: 'delete', name: v['delete-space']!, yes: v.yes === true };
}
